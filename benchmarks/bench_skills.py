"""Start-up with a folder of skills: what serve_skills and the first skills/list cost.

The issue's bound: serving 50 skills, start-up plus the first skills/list costs
at most the time to read and hash those files once, plus 20%. The figures,
medians of N runs, each in a fresh process (bytecode cached, as users run it):

- hash: reading and hashing every file of the 50 skills once (the floor);
- without: the server without skills, from exec to its first tools/list answer;
- with: the same server serving the folder, to its first skills/list answer
  (once with a folded description and nested metadata, once with the usual
  "key: words" front matter).

    python benchmarks/bench_skills.py [N]
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

SERVER = """
import sys
sys.path.insert(0, %r)
import mcp_stdio
server = mcp_stdio.Server("bench", "1")
@server.tool
def echo(text: str) -> str:
    "Echo."
    return text
if sys.argv[1] != "-":
    server.serve_skills(sys.argv[1])
raise SystemExit(server.run([]))
""" % ROOT

HASH = """
import hashlib, os, sys
for folder, dirs, files in os.walk(sys.argv[1]):
    for name in files:
        with open(os.path.join(folder, name), "rb") as f:
            hashlib.sha256(f.read()).hexdigest()
"""


# Front matter as most SKILL.md files have it ("key: words" lines), and a harder
# one (a folded description, a nested mapping) that needs the full YAML reader.
USUAL = "name: %s\ndescription: Skill number %d, for the benchmark. It has a few files.\nlicense: MIT"
FOLDED = ("name: %s\ndescription: >-\n  Skill number %d, for the benchmark.\n  It has a few files."
          "\nlicense: MIT\nmetadata:\n  version: \"1.0\"")


def make_skills(root, count=50, front=FOLDED):
    for i in range(count):
        name = "skill-%02d" % i
        folder = os.path.join(root, name)
        os.makedirs(os.path.join(folder, "references"))
        os.makedirs(os.path.join(folder, "scripts"))
        with open(os.path.join(folder, "SKILL.md"), "w") as f:
            f.write("---\n%s\n---\n# %s\n\n%s" % (front % (name, i), name,
                                                 "Some instructions.\n" * 100))
        for rel, size in (("references/GUIDE.md", 8000), ("references/API.md", 4000),
                          ("scripts/run.py", 2000)):
            with open(os.path.join(folder, *rel.split("/")), "w") as f:
                f.write(("x" * 79 + "\n") * (size // 80))


def timed(argv, data):
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    p.stdin.write(data)
    p.stdin.flush()
    p.stdout.readline()                       # the answer we wait for
    elapsed = time.perf_counter() - start
    p.stdin.close()
    p.wait()
    return elapsed


def main():
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {}}
    with tempfile.TemporaryDirectory() as tmp:
        skills = os.path.join(tmp, "skills")
        make_skills(skills)
        usual = os.path.join(tmp, "usual")
        make_skills(usual, front=USUAL)
        size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(skills)
                   for f in fs)
        script = os.path.join(tmp, "server.py")
        with open(script, "w") as f:
            f.write(SERVER)
        hasher = os.path.join(tmp, "hash.py")
        with open(hasher, "w") as f:
            f.write(HASH)
        listing = {"jsonrpc": "2.0", "id": 1, "method": "skills/list",
                   "params": {"_meta": meta}}
        tools = dict(listing, method="tools/list")
        py = sys.executable
        subprocess.run([py, "-c", "import sys; sys.path.insert(0, %r); import mcp_stdio" % ROOT],
                       env=env, check=True)          # bytecode cached before timing
        figures = {"empty": [], "hash": [], "without": [], "with": [], "usual": []}
        for _ in range(runs):
            start = time.perf_counter()
            subprocess.run([py, "-c", "pass"], env=env, check=True)
            figures["empty"].append(time.perf_counter() - start)
            start = time.perf_counter()
            subprocess.run([py, hasher, skills], env=env, check=True)
            figures["hash"].append(time.perf_counter() - start)
            figures["without"].append(timed([py, script, "-"], json.dumps(tools).encode() + b"\n"))
            figures["with"].append(timed([py, script, skills],
                                         json.dumps(listing).encode() + b"\n"))
            figures["usual"].append(timed([py, script, usual],
                                          json.dumps(listing).encode() + b"\n"))
    m = {k: statistics.median(v) * 1000 for k, v in figures.items()}
    hashing = m["hash"] - m["empty"]            # the work of reading and hashing, no start-up
    print("50 skills, 200 files, %d KiB; medians of %d runs (ms)" % (size // 1024, runs))
    print("  interpreter start alone      %6.1f" % m["empty"])
    print("  read and hash every file     %6.1f  (%.1f over the interpreter's start)"
          % (m["hash"], hashing))
    print("  server without skills        %6.1f  to its first tools/list" % m["without"])
    for key, what in (("with", "folded front matter"), ("usual", "key: words front matter")):
        extra = m[key] - m["without"]
        print("  server with the 50 skills    %6.1f  to its first skills/list (%s)"
              % (m[key], what))
        print("    what the skills add        %6.1f  = %.2fx reading and hashing them once"
              % (extra, extra / hashing if hashing > 0 else float("inf")))


if __name__ == "__main__":
    main()
