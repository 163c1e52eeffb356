"""Schema-checker benchmark: validations per second on the fixture of the subset document.

    python benchmarks/bench_schema.py [--repeat N]

Reports mcp_stdio's compiled validator and, when installed, jsonschema's reused
Draft202012Validator and fastjsonschema side by side, for a valid and an invalid
instance (a bad zip code inside the $ref'd address). Figures are the best of N
timed loops of about 0.5 s each.
"""

import argparse
import copy
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mcp_stdio  # noqa: E402

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "properties": {
        "query": {"type": "string", "minLength": 1, "maxLength": 500, "description": "Search text"},
        "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 10},
        "sort": {"type": "string", "enum": ["relevance", "date", "title", "author"]},
        "include_archived": {"type": "boolean"},
        "tags": {"type": "array", "maxItems": 16,
                 "items": {"type": "string", "pattern": "^[a-z][a-z0-9-]{0,31}$"}},
        "address": {"$ref": "#/$defs/Address"},
        "since": {"anyOf": [{"type": "string", "format": "date-time"}, {"type": "null"}]},
        "request_id": {"type": "string",
                       "pattern": "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"},
    },
    "required": ["query", "limit", "address"],
    "additionalProperties": False,
    "$defs": {
        "Address": {
            "type": "object",
            "properties": {
                "street": {"type": "string", "maxLength": 200},
                "city": {"type": "string", "maxLength": 100},
                "zip": {"type": "string", "pattern": "^[0-9]{5}$"},
                "country": {"type": "string", "enum": ["US", "CA", "MX", "GB", "DE", "FR"]},
            },
            "required": ["street", "city", "zip", "country"],
            "additionalProperties": False,
        }
    },
}

VALID = {
    "query": "distributed consensus protocols with bounded latency and byzantine fault tolerance "
             "in permissioned settings, comparing leader-based and leaderless designs " * 3,
    "limit": 25,
    "sort": "relevance",
    "include_archived": False,
    "tags": ["consensus", "raft", "paxos", "bft", "latency", "distributed-systems",
             "replication", "state-machine"],
    "address": {"street": "1600 Amphitheatre Parkway, Building 40", "city": "Mountain View",
                "zip": "94043", "country": "US"},
    "since": "2024-01-15T09:30:00Z",
    "request_id": "3f2b8c1e-9a4d-4e7b-8c2a-1d5e6f7a8b9c",
}
INVALID = copy.deepcopy(VALID)
INVALID["address"]["zip"] = "9404X"


def rate(fn, arg, repeat):
    best = 0.0
    for _ in range(repeat):
        n, t0 = 0, time.perf_counter()
        while True:
            for _ in range(200):
                fn(arg)
            n += 200
            dt = time.perf_counter() - t0
            if dt > 0.5:
                break
        best = max(best, n / dt)
    return best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    print("instance size: %d bytes" % len(json.dumps(VALID)))
    rows = []
    v = mcp_stdio.compile_schema(SCHEMA)
    assert v.errors(VALID) == [] and v.errors(INVALID)
    rows.append(("mcp_stdio Validator.errors", rate(v.errors, VALID, a.repeat),
                 rate(v.errors, INVALID, a.repeat)))
    text = json.dumps(VALID)
    rows.append(("json.loads of the instance (scale)", rate(json.loads, text, a.repeat), None))
    try:
        import jsonschema
        from referencing import Registry
        jv = jsonschema.Draft202012Validator(SCHEMA, registry=Registry())
        from importlib.metadata import version
        rows.append(("jsonschema %s reused, is_valid" % version("jsonschema"),
                     rate(jv.is_valid, VALID, a.repeat), rate(jv.is_valid, INVALID, a.repeat)))
    except ImportError:
        rows.append(("jsonschema (not installed)", None, None))
    try:
        import fastjsonschema
        fv = fastjsonschema.compile(SCHEMA, use_default=False)

        def fast(x):
            try:
                fv(x)
            except fastjsonschema.JsonSchemaException:
                pass
        rows.append(("fastjsonschema compiled", rate(fast, VALID, a.repeat),
                     rate(fast, INVALID, a.repeat)))
    except ImportError:
        pass
    print("%-40s %14s %14s" % ("validator", "valid/s", "invalid/s"))
    for name, ok, bad in rows:
        print("%-40s %14s %14s" % (name, "-" if ok is None else "{:,.0f}".format(ok),
                                   "-" if bad is None else "{:,.0f}".format(bad)))


if __name__ == "__main__":
    main()
