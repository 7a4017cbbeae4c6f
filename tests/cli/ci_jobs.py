#!/usr/bin/env python3
# ci_jobs.py check|scripts github|gitlab FILE [DIR] - read the CI jobs of
# ci/ with PyYAML (a duplicate key is an error, as it is for GitHub and
# GitLab; PyYAML alone keeps the last one) and:
#   check    check the job's structure: what the runner needs (GitHub: the
#            trigger, a job with runs-on and steps, each a run or a pinned
#            uses; GitLab: a stage, a script, the JUnit report) and that
#            the reports it publishes are the files its compare writes;
#            print one line per step
#   scripts  write each step's shell into DIR, in order: GitHub's run
#            steps without an if (NN.sh), GitLab's script as one job.sh
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


def github(doc):
    # YAML 1.1 reads the key "on" as true; GitHub reads YAML 1.2
    on = doc.get("on", doc.get(True))
    need(isinstance(on, dict) and "pull_request" in on, "not triggered by pull_request")
    jobs = doc.get("jobs")
    need(isinstance(jobs, dict) and len(jobs) == 1, "one job")
    job = next(iter(jobs.values()))
    need(job.get("runs-on"), "the job has no runs-on")
    env = job.get("env", {})
    for k in ("BASE_SHA", "HEAD_SHA"):
        need("github.event.pull_request" in str(env.get(k, "")), "env %s" % k)
    steps = job.get("steps")
    need(isinstance(steps, list) and steps, "no steps")
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
    script = "\n".join(s.get("run", "") for s in steps)
    for want in ("git worktree add", "bench doctor", "bench run", "GITHUB_STEP_SUMMARY"):
        need(want in script, "no %r" % want)
    uses = {s["uses"].split("@")[0]: s.get("with", {}) for s in steps if "uses" in s}
    junit = uses.get("mikepenz/action-junit-report", {}).get("report_paths")
    need(junit == written_by(script, "junit"), "the JUnit report is not what compare writes")
    md = uses.get("marocchino/sticky-pull-request-comment", {}).get("path")
    need(md == written_by(script, "markdown"), "the comment is not what compare writes")
    return [(s.get("name", s.get("uses")), s) for s in steps]


def gitlab(doc):
    stages = doc.get("stages")
    jobs = {k: v for k, v in doc.items() if isinstance(v, dict) and "script" in v}
    need(len(jobs) == 1, "one job with a script")
    name, job = next(iter(jobs.items()))
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
    return [(name, job)]


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
    steps = github(doc) if sys.argv[2] == "github" else gitlab(doc)
    if sys.argv[1] == "check":
        for name, _ in steps:
            print(name)
        return
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
