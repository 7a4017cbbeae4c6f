#!/usr/bin/env python3
# ci_jobs.py check|scripts github|gitlab FILE [DIR [JOB]] - read the CI
# jobs of ci/ with PyYAML (a duplicate key is an error, as it is for GitHub
# and GitLab; PyYAML alone keeps the last one) and:
#   check    check the jobs' structure: what the runner needs (GitHub: the
#            triggers, a gate job for pull requests and a nightly job for
#            the schedule, each with runs-on and steps, each step a run or
#            a pinned uses; GitLab: the same two jobs, a stage, a script,
#            the JUnit report) and that the reports the gate publishes are
#            the files its compare writes, and that the nightly job builds
#            KSB_PINNED into its cache and runs bench trend --control;
#            print one line per step (GitLab: per job), the gate's first
#   scripts  write the shell of JOB (gate, the default, or nightly) into
#            DIR, in order: GitHub's run steps without an if (NN.sh),
#            GitLab's script as one job.sh
# The sweeps (github-sweep, gitlab-sweep: ci/*-sweep.yml): check that a
# matrix (strategy.matrix.shard, parallel: N) runs vm --shard I/N
# over all of its N, keeps each shard as an artifact, and that a later
# job merges them and gates with bench scale; and that every ./bench
# command of every job is a command of $BENCH (default ./bench) whose
# options are its own; print each job's name. scripts writes every job's
# shell into DIR as NN-JOB.sh (GitHub: its run steps without an if).
# Exit 0, 1 with the reason on stderr, 2 bad usage.
import os
import re
import sys

import yaml


class StrictLoader(yaml.SafeLoader):
    pass


def mapping(loader, node, deep=False):
    seen = set()
    for k, _ in node.value:
        key = loader.construct_object(k, deep=deep)
        if key in seen:
            raise yaml.constructor.ConstructorError(
                None, None, "duplicate key %r" % (key,), k.start_mark)
        seen.add(key)
    return loader.construct_mapping(node, deep)


StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)


def fail(msg):
    sys.stderr.write("ci_jobs.py: %s: %s\n" % (sys.argv[3], msg))
    sys.exit(1)


def need(cond, msg):
    if not cond:
        fail(msg)


def written_by(script, fmt):
    """the file a 'bench compare -f FMT ... >FILE' of the script writes"""
    m = re.search(r"bench compare -f %s [^>]*>\s*(\S+)" % re.escape(fmt), script)
    need(m, "no 'bench compare -f %s ... >FILE' in the job" % fmt)
    return m.group(1)


def gh_steps(job, what):
    need(job.get("runs-on"), "the %s job has no runs-on" % what)
    steps = job.get("steps")
    need(isinstance(steps, list) and steps, "the %s job has no steps" % what)
    for i, s in enumerate(steps):
        need(isinstance(s, dict) and (("run" in s) != ("uses" in s)),
             "step %d: exactly one of run and uses" % (i + 1))
        if "uses" in s:
            need(re.fullmatch(r"[\w.-]+/[\w.-]+@v\d+", s["uses"]),
                 "step %d: uses %r is not owner/action@vN" % (i + 1, s["uses"]))
        if "if" in s:
            need("${{" not in s["if"], "step %d: if takes an expression bare" % (i + 1))
    need(steps[0].get("uses", "").startswith("actions/checkout@") and
         steps[0].get("with", {}).get("fetch-depth") == 0,
         "the first step checks out the whole history (worktrees of base and head)")
    return steps


def gh_job(jobs, event):
    """the one job whose if runs it for github.event_name EVENT"""
    found = [j for j in jobs.values() if "'%s'" % event in str(j.get("if", ""))]
    need(len(found) == 1, "one job with if: github.event_name == '%s'" % event)
    return found[0]


def github(doc):
    # YAML 1.1 reads the key "on" as true; GitHub reads YAML 1.2
    on = doc.get("on", doc.get(True))
    need(isinstance(on, dict) and "pull_request" in on, "not triggered by pull_request")
    need("schedule" in on and all("cron" in c for c in on["schedule"] or []),
         "not triggered by a schedule with a cron")
    jobs = doc.get("jobs")
    need(isinstance(jobs, dict) and len(jobs) == 2, "two jobs, the gate and the nightly")
    job = gh_job(jobs, "pull_request")
    env = job.get("env", {})
    for k in ("BASE_SHA", "HEAD_SHA"):
        need("github.event.pull_request" in str(env.get(k, "")), "env %s" % k)
    steps = gh_steps(job, "gate")
    script = "\n".join(s.get("run", "") for s in steps)
    for want in ("git worktree add", "bench doctor", "bench run", "GITHUB_STEP_SUMMARY"):
        need(want in script, "no %r" % want)
    uses = {s["uses"].split("@")[0]: s.get("with", {}) for s in steps if "uses" in s}
    junit = uses.get("mikepenz/action-junit-report", {}).get("report_paths")
    need(junit == written_by(script, "junit"), "the JUnit report is not what compare writes")
    md = uses.get("marocchino/sticky-pull-request-comment", {}).get("path")
    need(md == written_by(script, "markdown"), "the comment is not what compare writes")
    night = gh_job(jobs, "schedule")
    need(night.get("env", {}).get("KSB_PINNED"), "the nightly job has no env KSB_PINNED")
    nsteps = gh_steps(night, "nightly")
    nscript = "\n".join(s.get("run", "") for s in nsteps)
    nightly_script(nscript)
    caches = [s.get("with", {}) for s in nsteps if s.get("uses", "").startswith("actions/cache@")]
    need(any("env.KSB_PINNED" in str(c.get("key")) and
             str(c.get("path", "")).rstrip("/") == pinned_dir(nscript) for c in caches),
         "the pinned build is not cached under a key of KSB_PINNED")
    need(any(str(c.get("path", "")).rstrip("/") == "history" and c.get("restore-keys")
             for c in caches), "the history is not cached and restored")
    return [(s.get("name", s.get("uses")), s) for s in steps], \
        [(s.get("name", s.get("uses")), s) for s in nsteps]


def pinned_dir(script):
    """the directory of the pinned bench the nightly script runs"""
    m = re.search(r"^\s*(\S+)/bench run ", script, re.M)
    need(m, "the nightly job runs no pinned DIR/bench run")
    return m.group(1)


def nightly_script(script):
    for want in ("KSB_PINNED", "git worktree add", "bench doctor", "bench trend --control"):
        need(want in script, "the nightly job: no %r" % want)
    # the pinned build only when the cache did not bring it
    d = pinned_dir(script)
    need("[ ! -x %s/bench ]" % d in script, "the nightly job rebuilds the pinned bench every night")
    # interleaved: both benches inside one loop
    m = re.search(r"\bfor \w+ in [^\n]*\n(.*?)\n\s*done\b", script, re.S)
    need(m and "%s/bench run" % d in m.group(1) and "./bench run" in m.group(1),
         "the nightly job does not interleave the pinned and tonight's bench run")


def gl_job(jobs, source):
    """the one job whose rules run it for CI_PIPELINE_SOURCE SOURCE"""
    found = [(k, j) for k, j in jobs.items()
             if any(str(r.get("if", "")).find('"%s"' % source) >= 0 for r in j.get("rules", []))]
    need(len(found) == 1, "one job with a rule for %s" % source)
    return found[0]


def gitlab(doc):
    stages = doc.get("stages")
    jobs = {k: v for k, v in doc.items() if isinstance(v, dict) and "script" in v}
    need(len(jobs) == 2, "two jobs with a script, the gate and the nightly")
    nname, night = gl_job(jobs, "schedule")
    need(night.get("stage") in (stages or []), "the nightly job's stage is not in stages")
    need(night.get("variables", {}).get("KSB_PINNED"), "the nightly job has no variable KSB_PINNED")
    nscript = night["script"]
    need(isinstance(nscript, list) and all(isinstance(x, str) for x in nscript),
         "the nightly script is a list of strings")
    ntext = "\n".join(nscript)
    nightly_script(ntext)
    caches = night.get("cache", [])
    need(any("$KSB_PINNED" in str(c.get("key")) and
             [p.rstrip("/") for p in c.get("paths", [])] == [pinned_dir(ntext)] for c in caches),
         "the pinned build is not cached under a key of KSB_PINNED")
    need(any([p.rstrip("/") for p in c.get("paths", [])] == ["history"] and
             c.get("when") == "always" for c in caches), "the history is not cached after every night")
    name, job = next((k, j) for k, j in jobs.items() if k != nname)
    need(job.get("stage") in (stages or []), "the job's stage is not in stages")
    script = job["script"]
    need(isinstance(script, list) and all(isinstance(x, str) for x in script),
         "the script is a list of strings")
    text = "\n".join(script)
    for want in ("git worktree add", "bench doctor", "bench run", "CI_MERGE_REQUEST_DIFF_BASE_SHA"):
        need(want in text, "no %r" % want)
    art = job.get("artifacts", {})
    need(art.get("when") == "always", "artifacts are kept on failure too")
    need(art.get("reports", {}).get("junit") == written_by(text, "junit"),
         "the JUnit report is not what compare writes")
    md = written_by(text, "markdown")
    need(any(md.startswith(p.rstrip("/") + "/") or md == p for p in art.get("paths", [])),
         "the markdown report is not kept")
    need(any(r.get("if", "").find("merge_request_event") >= 0 for r in job.get("rules", [])),
         "not run for merge requests")
    return [(name, job)], [(nname, night)]


def bench_words(script):
    """every ./bench command line of @script, its words (continuations joined)"""
    text = script.replace("\\\n", " ")
    for line in text.splitlines():
        m = re.search(r"\./bench (\w+)(.*)", line)
        if m:
            # options come before the operands; vm's guest command after " -- "
            yield m.group(1), (m.group(2) + " ").split(" -- ")[0]


def check_commands(script):
    import subprocess
    bench = os.environ.get("BENCH", "./bench")
    need(os.access(bench, os.X_OK), "no %s to check the commands against (make bench, or BENCH=)" % bench)
    cmds = subprocess.run([bench, "--list-cmds"], capture_output=True, text=True).stdout.split()
    for cmd, rest in bench_words(script):
        need(cmd in cmds, "'bench %s' is not a command of %s" % (cmd, bench))
        opts = subprocess.run([bench, "--list-opts", cmd], capture_output=True,
                              text=True).stdout.split()
        helptext = subprocess.run([bench, cmd, "--help"], capture_output=True, text=True).stdout
        for w in rest.split():
            w = w.strip("\"'")
            if re.fullmatch(r"--[a-z][a-z-]*(=.*)?", w):
                need(w.split("=")[0] in opts, "bench %s has no option %s" % (cmd, w.split("=")[0]))
            elif re.fullmatch(r"-[A-Za-z]", w):
                need(re.search(r"^ +%s, --" % w, helptext, re.M), "bench %s has no option %s" % (cmd, w))


def shard_n(script, what):
    m = re.search(r"bench +vm .*--shard \"?([^\"\s]+)/([^\"\s]+)\"?", script.replace("\\\n", " "))
    need(m, "the %s job runs no vm --shard I/N of bench" % what)
    return m.group(1), m.group(2)


def gate_script(script):
    for want in ("bench merge -o", "bench scale"):
        need(want in script, "the gate job: no %r" % want)
    need(re.search(r"bench scale .*-- ", script.replace("\\\n", " ")),
         "the gate job's bench scale is no A -- B gate")


def github_sweep(doc):
    jobs = doc.get("jobs")
    need(isinstance(jobs, dict), "no jobs")
    found = [(k, j) for k, j in jobs.items()
             if "shard" in j.get("strategy", {}).get("matrix", {})]
    need(len(found) == 1, "one job with strategy.matrix.shard")
    name, job = found[0]
    shards = job["strategy"]["matrix"]["shard"]
    need(shards == list(range(1, len(shards) + 1)), "matrix.shard is not 1..N")
    steps = gh_steps(job, name)
    script = "\n".join(s.get("run", "") for s in steps)
    i, n = shard_n(script, name)
    need(i == "$SHARD" and "matrix.shard" in str(job.get("env", {}).get("SHARD")),
         "--shard's I is not the matrix's shard")
    need(n == str(len(shards)), "--shard's N is not the matrix's %d shards" % len(shards))
    need(any(s.get("uses", "").startswith("actions/upload-artifact@") and
             "matrix.shard" in str(s.get("with", {}).get("name")) for s in steps),
         "the shards are not uploaded one artifact each")
    gates = [(k, j) for k, j in jobs.items() if name in str(j.get("needs", ""))]
    need(len(gates) == 1, "one job needs the shards")
    gname, gate = gates[0]
    gsteps = gh_steps(gate, gname)
    need(any(s.get("uses", "").startswith("actions/download-artifact@") for s in gsteps),
         "the gate job downloads no shard")
    gtext = "\n".join(s.get("run", "") for s in gsteps)
    gate_script(gtext)
    accels = job["strategy"]["matrix"].get("accel")
    if accels:
        need(gate.get("strategy", {}).get("matrix", {}).get("accel") == accels,
             "one merge and gate per runner class: the gate's matrix.accel is not the shards'")
    out = []
    for k, j in jobs.items():
        js = j.get("steps", [])
        check_commands("\n".join(s.get("run", "") for s in js))
        out.append((k, [s for s in js if "run" in s and "if" not in s]))
    return out


def gitlab_sweep(doc):
    jobs = {k: v for k, v in doc.items() if isinstance(v, dict) and "script" in v}
    stages = doc.get("stages") or []
    for k, j in jobs.items():
        need(j.get("stage") in stages, "%s: its stage is not in stages" % k)
    found = [(k, j) for k, j in jobs.items() if isinstance(j.get("parallel"), int)]
    need(len(found) == 1, "one job with parallel: N")
    name, job = found[0]
    text = "\n".join(job["script"])
    need(shard_n(text, name) == ("$CI_NODE_INDEX", "$CI_NODE_TOTAL"),
         "--shard is not $CI_NODE_INDEX/$CI_NODE_TOTAL")
    need(any("$CI_NODE_INDEX" in p for p in job.get("artifacts", {}).get("paths", [])),
         "the shards are not kept one artifact path each")
    gates = [(k, j) for k, j in jobs.items() if name in j.get("needs", [])]
    need(len(gates) == 1, "one job needs the shards")
    gname, gate = gates[0]
    need(stages.index(gate["stage"]) > stages.index(job["stage"]), "the gate runs before the shards")
    gate_script("\n".join(gate["script"]))
    need(gate.get("artifacts", {}).get("when") == "always", "the merge is kept on failure too")
    for k, j in jobs.items():
        check_commands("\n".join(j["script"]))
    return [(k, j["script"]) for k, j in jobs.items()]


def load():
    """FILE, parsed strictly: a mapping"""
    with open(sys.argv[3]) as f:
        try:
            doc = yaml.load(f, Loader=StrictLoader)
        except yaml.YAMLError as e:
            fail(str(e).replace("\n", " "))
    need(isinstance(doc, dict), "not a mapping")
    return doc


def sweep_main():
    doc = load()
    jobs = github_sweep(doc) if sys.argv[2] == "github-sweep" else gitlab_sweep(doc)
    if sys.argv[1] == "check":
        for name, _ in jobs:
            print(name)
        return
    os.makedirs(sys.argv[4], exist_ok=True)
    for n, (name, steps) in enumerate(jobs):
        with open(os.path.join(sys.argv[4], "%02d-%s.sh" % (n + 1, name)), "w") as f:
            if sys.argv[2] == "gitlab-sweep":
                f.write("\n".join(steps) + "\n")
            else:
                f.write("".join("# %s\n%s\n" % (s.get("name", ""), s["run"]) for s in steps))


def main():
    if len(sys.argv) >= 4 and sys.argv[1] in ("check", "scripts") and \
            sys.argv[2] in ("github-sweep", "gitlab-sweep"):
        return sweep_main()
    if len(sys.argv) < 4 or sys.argv[1] not in ("check", "scripts") or \
            sys.argv[2] not in ("github", "gitlab"):
        sys.stderr.write("usage: ci_jobs.py check|scripts github|gitlab FILE [DIR]\n")
        sys.exit(2)
    doc = load()
    gate, night = github(doc) if sys.argv[2] == "github" else gitlab(doc)
    if sys.argv[1] == "check":
        for name, _ in gate + night:
            print(name)
        return
    which = sys.argv[5] if len(sys.argv) > 5 else "gate"
    if which not in ("gate", "nightly"):
        sys.stderr.write("usage: ci_jobs.py scripts github|gitlab FILE DIR [gate|nightly]\n")
        sys.exit(2)
    steps = gate if which == "gate" else night
    os.makedirs(sys.argv[4], exist_ok=True)
    if sys.argv[2] == "gitlab":
        with open(os.path.join(sys.argv[4], "job.sh"), "w") as f:
            f.write("\n".join(steps[0][1]["script"]) + "\n")
        return
    n = 0
    for name, s in steps:
        if "run" in s and "if" not in s:
            n += 1
            with open(os.path.join(sys.argv[4], "%02d.sh" % n), "w") as f:
                f.write("# %s\n%s\n" % (name, s["run"]))


main()
