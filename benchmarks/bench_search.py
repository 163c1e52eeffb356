"""search_tools over a large catalog: the index's first build, and each search, in CPU time.

    python benchmarks/bench_search.py [--tools 10000] [--runs 20]

A server of N tools (names, descriptions and a parameter made of a fixed vocabulary,
fixed seed) with tool search on: the CPU time of building its index (once per
catalog), and the median CPU time of a search_tools call through an InProcessClient
(the whole call: admission, the ranking, the found tools described) for a few queries.
"""

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mcp_stdio  # noqa: E402

WORDS = ("read write list search create delete update file directory user issue repository "
         "branch commit message channel email calendar event invoice customer order product "
         "price stock weather forecast city route image video transcript note project board "
         "card database table row record alert metric log").split()
QUERIES = ("search the issues of a repository", "send an email message",
           "weather forecast for a city", "delete the rows of a database table", "list")


def server(n):
    r = random.Random(n)
    s = mcp_stdio.Server("big", "1", tool_search=True)
    for i in range(n):
        w = r.sample(WORDS, 4)
        s.add(mcp_stdio.Tool("%s_%s_%d" % (w[0], w[1], i), lambda a, c: "ok",
                             description="%s the %s of a %s for the %s." % tuple(w),
                             input_schema={"type": "object", "properties": {w[2]: {
                                 "type": "string", "description": "The %s to %s." % (
                                     w[2], w[0])}}}))
    return s


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=20)
    a = ap.parse_args()
    s = server(a.tools)
    with mcp_stdio.InProcessClient(s, era="legacy") as c:
        t = time.process_time()
        c.call_tool("search_tools", {"query": "build the index"})
        print("%d tools: the first search, with the index's build: %.0f ms of CPU" % (
            a.tools, (time.process_time() - t) * 1000))
        for q in QUERIES:
            times = []
            for _ in range(a.runs):
                t = time.process_time()
                c.call_tool("search_tools", {"query": q})
                times.append(time.process_time() - t)
            print("  %-40s %.2f ms of CPU (median of %d)" % (q, statistics.median(times) * 1000,
                                                           a.runs))


if __name__ == "__main__":
    main()
