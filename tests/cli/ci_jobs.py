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


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ("check", "scripts") or \
            sys.argv[2] not in ("github", "gitlab"):
        sys.stderr.write("usage: ci_jobs.py check|scripts github|gitlab FILE [DIR]\n")
        sys.exit(2)
    with open(sys.argv[3]) as f:
        try:
            doc = yaml.load(f, Loader=StrictLoader)
        except yaml.YAMLError as e:
            fail(str(e).replace("\n", " "))
    need(isinstance(doc, dict), "not a mapping")
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
