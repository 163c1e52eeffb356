#!/usr/bin/env python3
"""mcp_stdio: a Model Context Protocol server on stdin/stdout, in one standard-library file.

Serve tools to AI clients of both MCP eras: modern clients (revision 2026-07-28,
per-request ``_meta``, ``server/discover``) and legacy clients (the ``initialize``
handshake, revisions 2024-11-05 through 2025-11-25).

Run the demo server::

    python mcp_stdio.py

Serve your own tools::

    import mcp_stdio

    def add(arguments, ctx):
        return {"sum": arguments["a"] + arguments["b"]}

    server = mcp_stdio.Server("calc", "1.0", tools=[mcp_stdio.Tool(
        "add", add,
        input_schema={"type": "object", "required": ["a", "b"],
                      "properties": {"a": {"type": "number"}, "b": {"type": "number"}}},
        output_schema={"type": "object", "properties": {"sum": {"type": "number"}}})])
    server.run()

The file is organised in sections: the JSON Schema checker, the wire codec, the
catalog (tools and results), the sans-IO protocol engine, the stdio runtime, and
the demo catalog with the command line.
"""

import json
import os
import re
import sys

__version__ = "0.1.0"

__all__ = [
    "SchemaError", "Validator", "compile_schema", "validate",
    "Tool", "ToolError", "Server", "Connection", "Context", "Call",
    "encode_message", "decode_message", "LineSplitter", "serve_stdio", "main",
]


###############################################################################
# JSON Schema 2020-12 subset checker ##########################################
###############################################################################
#
# compile_schema() analyses a schema once and builds a tree of closures; a
# Validator then checks instances without re-reading the schema dict. Every
# keyword we accept is enforced or is a pure annotation; anything we cannot
# enforce is a SchemaError at compile time, never silently ignored.

class SchemaError(ValueError):
    """A schema is malformed or outside the supported subset."""


class Validator:
    """A compiled schema: call errors(instance) or is_valid(instance)."""

    __slots__ = ("schema", "_root", "_max_errors")

    def __init__(self, schema, root, max_errors=20):
        self.schema = schema          # the caller's object, unchanged
        self._root = root
        self._max_errors = max_errors

    def errors(self, instance):
        """Return a list of messages, empty when instance is valid.

        Each message starts with the JSON pointer of the failing location in the
        instance (``(root)`` for the whole instance) and names the keyword.
        """
        st = _State(self._max_errors)
        try:
            if self._root(instance, st, ()):
                return []
        except _Abort:
            pass
        return st.errors or ["(root): invalid"]

    def is_valid(self, instance):
        """Return True when instance conforms to the schema."""
        return not self.errors(instance)


_SCHEMA_CACHE = {}


def compile_schema(schema, *, max_depth=64, max_subschemas=10000, max_errors=20):
    """Compile a JSON Schema (2020-12, or draft-07 where it agrees) into a Validator.

    Raises SchemaError naming the JSON pointer inside the schema and the reason.
    """
    c = _Compiler(schema, max_depth, max_subschemas)
    return Validator(schema, c.compile_root(), max_errors)


def validate(schema, instance):
    """Check instance against schema (compiled once and cached); return error messages."""
    key = json.dumps(schema, sort_keys=True, allow_nan=False)
    v = _SCHEMA_CACHE.get(key)
    if v is None:
        if len(_SCHEMA_CACHE) > 256:
            _SCHEMA_CACHE.clear()
        v = _SCHEMA_CACHE[key] = compile_schema(schema)
    return v.errors(instance)


_MAX_INSTANCE_DEPTH = 128
_MAX_STEPS = 200000

_DIALECTS_2020 = ("https://json-schema.org/draft/2020-12/schema",
                  "https://json-schema.org/draft/2020-12/schema#")
_DIALECTS_07 = ("http://json-schema.org/draft-07/schema#",
                "http://json-schema.org/draft-07/schema")

_TYPE_NAMES = ("null", "boolean", "integer", "number", "string", "array", "object")

_ANNOTATIONS = frozenset((
    "title", "description", "default", "examples", "deprecated", "readOnly",
    "writeOnly", "$comment", "format", "contentEncoding", "contentMediaType",
    "contentSchema", "$schema", "$id", "$anchor", "$defs", "definitions"))

_UNSUPPORTED = {
    "$dynamicRef": "dynamic references are not supported; use a local '$ref'",
    "$dynamicAnchor": "dynamic anchors are not supported; use '$anchor'",
    "$recursiveRef": "recursive references are not supported; use a local '$ref'",
    "$recursiveAnchor": "recursive anchors are not supported; use '$anchor'",
    "$vocabulary": "custom vocabularies are not supported",
    "unevaluatedProperties": "not supported; use 'additionalProperties' (with the "
                             "properties listed beside it) instead",
    "unevaluatedItems": "not supported; use 'items' (after 'prefixItems') instead",
    "dependencies": "draft-07 keyword; use 'dependentRequired' or 'dependentSchemas'",
    "additionalItems": "draft-07 keyword; use 'prefixItems' with 'items'",
}

# Keywords that apply a subschema to the same instance location: a cycle made only
# of these never consumes input, so it would loop forever.
_IN_PLACE = ("$ref", "allOf", "anyOf", "oneOf", "not", "if", "then", "else",
             "dependentSchemas")

_ANCHOR_RE = re.compile(r"^[A-Za-z_][-A-Za-z0-9._]*$")


class _Abort(Exception):
    """Raised inside validation when a budget is exhausted."""


class _State:
    __slots__ = ("errors", "max_errors", "memo", "steps")

    def __init__(self, max_errors):
        self.errors = []
        self.max_errors = max_errors
        self.memo = {}
        self.steps = 0

    def fail(self, loc, msg):
        if len(self.errors) < self.max_errors:
            if len(msg) > 300:
                msg = msg[:297] + "..."
            self.errors.append(_pointer(loc) + ": " + msg)
        return False


def _pointer(loc):
    if not loc:
        return "(root)"
    return "".join("/" + (str(k).replace("~", "~0").replace("/", "~1")) for k in loc)


def _short(value, limit=60):
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _json_type(x):
    if x is None:
        return "null"
    if x is True or x is False:
        return "boolean"
    if isinstance(x, int):
        return "integer"
    if isinstance(x, float):
        return "integer" if x.is_integer() else "number"
    if isinstance(x, str):
        return "string"
    if isinstance(x, (list, tuple)):
        return "array"
    if isinstance(x, dict):
        return "object"
    return type(x).__name__


def _is_number(x):
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _canon(x):
    """A hashable key for JSON values under JSON equality (1 == 1.0, true != 1)."""
    if isinstance(x, bool):
        return ("b", x)
    if isinstance(x, (int, float)):
        return ("n", x)
    if isinstance(x, str):
        return ("s", x)
    if x is None:
        return ("z",)
    if isinstance(x, (list, tuple)):
        return ("a", tuple(_canon(i) for i in x))
    if isinstance(x, dict):
        return ("o", frozenset((k, _canon(v)) for k, v in x.items()))
    return ("?", id(x))


_TYPE_CHECKS = {
    "null": lambda x: x is None,
    "boolean": lambda x: x is True or x is False,
    "integer": lambda x: (isinstance(x, int) and not isinstance(x, bool))
    or (isinstance(x, float) and x.is_integer()),
    "number": _is_number,
    "string": lambda x: isinstance(x, str),
    "array": lambda x: isinstance(x, (list, tuple)),
    "object": lambda x: isinstance(x, dict),
}


def _is_multiple(x, m):
    if isinstance(x, int) and isinstance(m, int):
        return x % m == 0
    import decimal
    with decimal.localcontext() as ctx:
        ctx.prec = 1000
        ctx.traps[decimal.InvalidOperation] = True
        try:
            return decimal.Decimal(repr(x)) % decimal.Decimal(repr(m)) == 0
        except decimal.DecimalException:
            return False


def _translate_pattern(p, where):
    """Translate an ECMA-262 pattern to Python re syntax, or raise SchemaError."""
    out = []
    i, n, in_class = 0, len(p), False
    while i < n:
        ch = p[i]
        if ch == "\\":
            if i + 1 >= n:
                raise SchemaError("%s: pattern %r ends with a lone backslash" % (where, p))
            nx = p[i + 1]
            if nx in "pP" and i + 2 < n and p[i + 2] == "{":
                raise SchemaError("%s: pattern %r uses Unicode property escapes (\\p{...}), "
                                  "which Python's re cannot enforce; use explicit character "
                                  "ranges" % (where, p))
            if nx == "c":
                raise SchemaError("%s: pattern %r uses a control escape (\\c), which Python's "
                                  "re does not support; use \\xHH" % (where, p))
            if nx == "d":
                out.append("0-9" if in_class else "[0-9]")
            elif nx == "w":
                out.append("A-Za-z0-9_" if in_class else "[A-Za-z0-9_]")
            elif nx == "D" and not in_class:
                out.append("[^0-9]")
            elif nx == "W" and not in_class:
                out.append("[^A-Za-z0-9_]")
            elif nx == "s":      # ECMA-262 whitespace includes U+FEFF
                out.append("\\s\ufeff" if in_class else "[\\s\ufeff]")
            elif nx == "S" and not in_class:
                out.append("[^\\s\ufeff]")
            else:
                out.append(p[i:i + 2])
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
            elif ch == "[":
                ch = "\\["   # Python warns on nested sets; ECMA treats '[' literally
            out.append(ch)
        elif ch == "[":
            in_class = True
            out.append(ch)
            if p.startswith("^", i + 1):
                out.append("^")
                i += 1
            if p.startswith("]", i + 1):   # ECMA '[]' matches nothing; Python differs
                raise SchemaError("%s: pattern %r has an empty character class" % (where, p))
        elif ch == "$":
            out.append(r"\Z")
        elif ch in "*+?}" and i + 1 < n and p[i + 1] == "+":
            raise SchemaError("%s: pattern %r uses a possessive quantifier, which "
                              "ECMA-262 does not have" % (where, p))
        elif p.startswith(("(?P", "(?>", "(?#"), i):
            raise SchemaError("%s: pattern %r uses Python-only group syntax" % (where, p))
        else:
            out.append(ch)
        i += 1
    try:
        return re.compile("".join(out))
    except (re.error, OverflowError, RecursionError) as e:
        raise SchemaError("%s: pattern %r cannot be compiled faithfully (%s)" % (where, p, e))


def _unescape_token(tok):
    if "%" in tok:
        from urllib.parse import unquote
        tok = unquote(tok)
    return tok.replace("~1", "/").replace("~0", "~")


class _Compiler:
    """Walks a schema once: checks well-formedness, resolves refs, builds closures."""

    def __init__(self, schema, max_depth, max_subschemas):
        self.root = schema
        self.max_depth = max_depth
        self.max_subschemas = max_subschemas
        self.count = 0
        self.draft07 = False
        self.nodes = {}        # id(raw schema) -> compiled function (or placeholder cell)
        self.keep = []         # raw schemas kept alive while ids are in use
        self.anchors = {}      # anchor name -> raw schema
        self.edges = {}        # id(raw) -> ids of schemas applied in place
        self.names = {}        # id(raw) -> schema pointer, for messages

    # -- entry --------------------------------------------------------------
    def compile_root(self):
        s = self.root
        if isinstance(s, dict):
            d = s.get("$schema")
            if d is not None:
                if d in _DIALECTS_07:
                    self.draft07 = True
                elif d not in _DIALECTS_2020:
                    raise SchemaError("#/$schema: unsupported dialect %s; use %s" % (
                        _short(d), _DIALECTS_2020[0]))
            i = s.get("$id")
            if i is not None and not isinstance(i, str):
                raise SchemaError("#/$id: must be a string")
            if self.draft07 and isinstance(i, str) and "#" in i.rstrip("#"):
                raise SchemaError("#/$id: a draft-07 '$id' with a fragment is not supported")
        elif not isinstance(s, bool):
            raise SchemaError("#: a schema must be an object or a boolean, got %s" % _json_type(s))
        self._collect_anchors(s, "#", 0)
        fn = self._node(s, "#", 0)
        self._check_cycles()
        return fn

    # -- anchors ------------------------------------------------------------
    def _collect_anchors(self, s, where, depth):
        # Anchors may be referenced before the walk reaches them, so find them first.
        if depth > self.max_depth or not isinstance(s, dict):
            return
        a = s.get("$anchor")
        if a is not None:
            if not isinstance(a, str) or not _ANCHOR_RE.match(a):
                raise SchemaError("%s/$anchor: %s is not a valid anchor name" % (where, _short(a)))
            if a in self.anchors and self.anchors[a] is not s:
                raise SchemaError("%s/$anchor: duplicate anchor %r" % (where, a))
            self.anchors[a] = s
        for k, v in s.items():
            if k in ("properties", "patternProperties", "$defs", "definitions",
                     "dependentSchemas") and isinstance(v, dict):
                for kk, vv in v.items():
                    self._collect_anchors(vv, "%s/%s/%s" % (where, k, _esc(kk)), depth + 1)
            elif k in ("allOf", "anyOf", "oneOf", "prefixItems") and isinstance(v, list):
                for j, vv in enumerate(v):
                    self._collect_anchors(vv, "%s/%s/%d" % (where, k, j), depth + 1)
            elif k in ("items", "contains", "additionalProperties", "propertyNames",
                       "not", "if", "then", "else"):
                self._collect_anchors(v, "%s/%s" % (where, k), depth + 1)

    # -- refs ---------------------------------------------------------------
    def _resolve(self, ref, where):
        if not ref.startswith("#"):
            raise SchemaError("%s/$ref: %s is not a local reference; only '#...' references "
                              "inside the same schema are supported (remote schemas are never "
                              "fetched)" % (where, _short(ref)))
        frag = ref[1:]
        if frag == "" :
            return self.root, "#"
        if not frag.startswith("/"):
            if "%" in frag:
                from urllib.parse import unquote
                frag = unquote(frag)
            target = self.anchors.get(frag)
            if target is None:
                raise SchemaError("%s/$ref: anchor %s is not defined" % (where, _short(ref)))
            return target, "#" + frag
        node = self.root
        for tok in frag[1:].split("/"):
            tok = _unescape_token(tok)
            if isinstance(node, dict) and tok in node:
                node = node[tok]
            elif isinstance(node, list) and tok.isdigit() and int(tok) < len(node) \
                    and (tok == "0" or not tok.startswith("0")):
                node = node[int(tok)]
            else:
                raise SchemaError("%s/$ref: %s does not resolve inside the schema"
                                  % (where, _short(ref)))
        if not isinstance(node, (dict, bool)):
            raise SchemaError("%s/$ref: %s points at a %s, not a schema"
                              % (where, _short(ref), _json_type(node)))
        return node, ref

    def _check_cycles(self):
        # Iterative DFS over in-place edges; a back edge is a cycle that never consumes input.
        WHITE, GREY, BLACK = 0, 1, 2
        color = {}
        for start in self.edges:
            if color.get(start):
                continue
            stack = [(start, iter(self.edges.get(start, ())))]
            color[start] = GREY
            while stack:
                node, it = stack[-1]
                nxt = next(it, None)
                if nxt is None:
                    color[node] = BLACK
                    stack.pop()
                    continue
                c = color.get(nxt, WHITE)
                if c == GREY:
                    raise SchemaError("%s: reference cycle that never consumes the instance "
                                      "(it would loop forever)" % self.names.get(nxt, "#"))
                if c == WHITE:
                    color[nxt] = GREY
                    stack.append((nxt, iter(self.edges.get(nxt, ()))))

    # -- subschemas ---------------------------------------------------------
    def _node(self, s, where, depth):
        """Compile subschema s (memoised by identity) and return its check function."""
        key = id(s)
        fn = self.nodes.get(key)
        if fn is not None:
            return fn
        if depth > self.max_depth:
            raise SchemaError("%s: schema nesting deeper than %d levels" % (where, self.max_depth))
        self.count += 1
        if self.count > self.max_subschemas:
            raise SchemaError("%s: more than %d subschemas" % (where, self.max_subschemas))
        self.keep.append(s)
        self.names[key] = where
        self.edges.setdefault(key, [])
        # A placeholder lets recursive refs find this node before it is built.
        cell = []
        self.nodes[key] = lambda x, st, loc: cell[0](x, st, loc)
        if s is True:
            real = _accept
        elif s is False:
            real = _reject
        elif isinstance(s, dict):
            real = self._build(s, where, depth)
        else:
            raise SchemaError("%s: a schema must be an object or a boolean, got %s"
                              % (where, _json_type(s)))
        cell.append(real)
        self.nodes[key] = real
        return real

    def _sub(self, parent, s, where, depth, in_place=False):
        fn = self._node(s, where, depth + 1)
        if in_place:
            self.edges[id(parent)].append(id(s))
        return fn

    def _build(self, s, where, depth):
        checks = []
        add = checks.append
        for k in s:
            if k in _UNSUPPORTED:
                raise SchemaError("%s/%s: %s" % (where, k, _UNSUPPORTED[k]))
        if where != "#":
            if "$schema" in s:
                raise SchemaError("%s/$schema: '$schema' is only allowed at the root" % where)
            if "$id" in s:
                raise SchemaError("%s/$id: embedded resources ('$id' below the root) are not "
                                  "supported; use '$defs' with '$anchor'" % where)
        if self.draft07 and "$ref" in s:
            extra = [k for k in s if k != "$ref" and k not in _ANNOTATIONS]
            if extra:
                raise SchemaError("%s: a draft-07 '$ref' ignores its sibling keywords (%s); "
                                  "declare the schema as 2020-12 or move them into allOf"
                                  % (where, ", ".join(sorted(extra))))
        for k in ("$defs", "definitions"):
            if k in s:
                defs = s[k]
                if not isinstance(defs, dict):
                    raise SchemaError("%s/%s: must be an object of schemas" % (where, k))
                for name, sub in defs.items():
                    self._sub(s, sub, "%s/%s/%s" % (where, k, _esc(name)), depth)

        # -- references
        if "$ref" in s:
            ref = s["$ref"]
            if not isinstance(ref, str):
                raise SchemaError("%s/$ref: must be a string" % where)
            target, label = self._resolve(ref, where)
            fn = self._sub(s, target, label if label.startswith("#/") else where + "/$ref",
                           depth, in_place=True)
            add(_ref_check(fn, id(target), ref))

        # -- type and values
        if "type" in s:
            add(self._type(s["type"], where))
        if "enum" in s:
            e = s["enum"]
            if not isinstance(e, list):
                raise SchemaError("%s/enum: must be an array" % where)
            if len(e) > 10000:
                raise SchemaError("%s/enum: more than 10000 values" % where)
            add(_enum_check(e))
        if "const" in s:
            add(_const_check(s["const"]))

        # -- numbers
        for k, op in (("minimum", "lt"), ("maximum", "gt"),
                      ("exclusiveMinimum", "le"), ("exclusiveMaximum", "ge")):
            if k in s:
                v = s[k]
                if not _is_number(v):
                    raise SchemaError("%s/%s: must be a number" % (where, k))
                add(_bound_check(k, op, v))
        if "multipleOf" in s:
            m = s["multipleOf"]
            if not _is_number(m) or m <= 0:
                raise SchemaError("%s/multipleOf: must be a number greater than 0" % where)
            add(_multiple_check(m))

        # -- strings
        lo, hi = self._count(s, "minLength", where), self._count(s, "maxLength", where)
        if lo is not None or hi is not None:
            add(_length_check(lo, hi))
        if "pattern" in s:
            p = s["pattern"]
            if not isinstance(p, str):
                raise SchemaError("%s/pattern: must be a string" % where)
            add(_pattern_check(_translate_pattern(p, where + "/pattern"), p))

        # -- arrays
        prefix = ()
        if "prefixItems" in s:
            pi = s["prefixItems"]
            if not isinstance(pi, list) or not pi:
                raise SchemaError("%s/prefixItems: must be a non-empty array of schemas" % where)
            prefix = tuple(self._sub(s, x, "%s/prefixItems/%d" % (where, j), depth)
                           for j, x in enumerate(pi))
        items = None
        if "items" in s:
            it = s["items"]
            if isinstance(it, list):
                raise SchemaError("%s/items: the array form of 'items' is draft-07; use "
                                  "'prefixItems' for positional schemas" % where)
            items = self._sub(s, it, where + "/items", depth)
        if prefix or items is not None:
            add(_items_check(prefix, items))
        lo, hi = self._count(s, "minItems", where), self._count(s, "maxItems", where)
        if lo is not None or hi is not None:
            add(_size_check(lo, hi, "items", (list, tuple)))
        if "uniqueItems" in s:
            if not isinstance(s["uniqueItems"], bool):
                raise SchemaError("%s/uniqueItems: must be a boolean" % where)
            if s["uniqueItems"]:
                add(_unique_check)
        cmin = self._count(s, "minContains", where)
        cmax = self._count(s, "maxContains", where)
        if "contains" in s:
            fn = self._sub(s, s["contains"], where + "/contains", depth)
            add(_contains_check(fn, 1 if cmin is None else cmin, cmax))

        # -- objects
        props = {}
        if "properties" in s:
            p = s["properties"]
            if not isinstance(p, dict):
                raise SchemaError("%s/properties: must be an object of schemas" % where)
            props = {k: self._sub(s, v, "%s/properties/%s" % (where, _esc(k)), depth)
                     for k, v in p.items()}
        pats = []
        if "patternProperties" in s:
            pp = s["patternProperties"]
            if not isinstance(pp, dict):
                raise SchemaError("%s/patternProperties: must be an object of schemas" % where)
            for k, v in pp.items():
                w = "%s/patternProperties/%s" % (where, _esc(k))
                pats.append((_translate_pattern(k, w), self._sub(s, v, w, depth)))
        addl = None
        if "additionalProperties" in s:
            a = s["additionalProperties"]
            addl = False if a is False else self._sub(s, a, where + "/additionalProperties", depth)
        if props or pats or addl is not None:
            add(_properties_check(props, tuple(pats), addl))
        if "required" in s:
            add(_required_check(self._names(s["required"], where + "/required")))
        if "propertyNames" in s:
            add(_names_check(self._sub(s, s["propertyNames"], where + "/propertyNames", depth)))
        lo, hi = self._count(s, "minProperties", where), self._count(s, "maxProperties", where)
        if lo is not None or hi is not None:
            add(_size_check(lo, hi, "properties", dict))
        if "dependentRequired" in s:
            dr = s["dependentRequired"]
            if not isinstance(dr, dict):
                raise SchemaError("%s/dependentRequired: must be an object of string arrays" % where)
            add(_dep_required_check({k: self._names(v, "%s/dependentRequired/%s" % (where, _esc(k)))
                                     for k, v in dr.items()}))
        if "dependentSchemas" in s:
            ds = s["dependentSchemas"]
            if not isinstance(ds, dict):
                raise SchemaError("%s/dependentSchemas: must be an object of schemas" % where)
            add(_dep_schemas_check({k: self._sub(s, v, "%s/dependentSchemas/%s" % (where, _esc(k)),
                                                 depth, in_place=True)
                                    for k, v in ds.items()}))

        # -- composition
        for k, maker in (("allOf", _all_of), ("anyOf", _any_of), ("oneOf", _one_of)):
            if k in s:
                lst = s[k]
                if not isinstance(lst, list) or not lst:
                    raise SchemaError("%s/%s: must be a non-empty array of schemas" % (where, k))
                add(maker(tuple(self._sub(s, x, "%s/%s/%d" % (where, k, j), depth, in_place=True)
                                for j, x in enumerate(lst))))
        if "not" in s:
            add(_not_check(self._sub(s, s["not"], where + "/not", depth, in_place=True)))
        then_fn = else_fn = None
        if "then" in s:
            then_fn = self._sub(s, s["then"], where + "/then", depth, in_place=True)
        if "else" in s:
            else_fn = self._sub(s, s["else"], where + "/else", depth, in_place=True)
        if "if" in s:
            if_fn = self._sub(s, s["if"], where + "/if", depth, in_place=True)
            if then_fn is not None or else_fn is not None:
                add(_if_check(if_fn, then_fn, else_fn))
        if "$anchor" in s and not isinstance(s["$anchor"], str):
            raise SchemaError("%s/$anchor: must be a string" % where)
        return _all_checks(tuple(checks))

    def _type(self, t, where):
        names = [t] if isinstance(t, str) else t
        if not isinstance(names, list) or not names or \
                any(not isinstance(n, str) or n not in _TYPE_NAMES for n in names) or \
                len(set(names)) != len(names):
            raise SchemaError("%s/type: must be one of %s or a list of unique type names, got %s"
                              % (where, ", ".join(_TYPE_NAMES), _short(t)))
        return _type_check(tuple(names))

    @staticmethod
    def _count(s, k, where):
        if k not in s:
            return None
        v = s[k]
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise SchemaError("%s/%s: must be a non-negative integer" % (where, k))
        return v

    @staticmethod
    def _names(v, where):
        if not isinstance(v, list) or any(not isinstance(x, str) for x in v) \
                or len(set(v)) != len(v):
            raise SchemaError("%s: must be an array of unique strings" % where)
        return tuple(v)


def _esc(k):
    return str(k).replace("~", "~0").replace("/", "~1")


# Check builders. Each returns fn(instance, state, loc) -> bool, recording errors.

def _accept(x, st, loc):
    return True


def _reject(x, st, loc):
    return st.fail(loc, "no value is allowed here (false schema)")


def _all_checks(checks):
    if not checks:
        return _accept
    if len(checks) == 1:
        return checks[0]

    def check(x, st, loc):
        ok = True
        for c in checks:
            if not c(x, st, loc):
                ok = False
                if len(st.errors) >= st.max_errors:
                    break
        return ok
    return check


def _ref_check(fn, key, ref):
    def check(x, st, loc):
        mk = (key, id(x))
        hit = st.memo.get(mk)
        if hit is not None:
            return hit or st.fail(loc, "does not match %s ($ref)" % ref)
        st.steps += 1
        if st.steps > _MAX_STEPS:
            st.fail(loc, "validation is too complex (step budget exhausted)")
            raise _Abort()
        ok = fn(x, st, loc)
        st.memo[mk] = ok
        return ok
    return check


def _type_check(names):
    if len(names) == 1:
        t = names[0]
        if t == "string":
            def check(x, st, loc):
                return isinstance(x, str) or st.fail(
                    loc, "expected type string, got %s" % _json_type(x))
            return check
        if t == "object":
            def check(x, st, loc):
                return isinstance(x, dict) or st.fail(
                    loc, "expected type object, got %s" % _json_type(x))
            return check
    tests = tuple(_TYPE_CHECKS[n] for n in names)
    label = " or ".join(names)

    def check(x, st, loc):
        for t in tests:
            if t(x):
                return True
        return st.fail(loc, "expected type %s, got %s" % (label, _json_type(x)))
    return check


def _enum_check(values):
    keys = set()
    for v in values:
        try:
            keys.add(_canon(v))
        except TypeError:
            pass
    label = _short(values, 80)

    def check(x, st, loc):
        return _canon(x) in keys or st.fail(loc, "must be one of %s (enum)" % label)
    return check


def _const_check(value):
    key = _canon(value)
    label = _short(value)

    def check(x, st, loc):
        return _canon(x) == key or st.fail(loc, "must equal %s (const)" % label)
    return check


def _bound_check(keyword, op, limit):
    words = {"lt": "less than", "gt": "greater than",
             "le": "not greater than", "ge": "not less than"}[op]

    def check(x, st, loc):
        if not _is_number(x):
            return True
        bad = (x < limit if op == "lt" else x > limit if op == "gt"
               else x <= limit if op == "le" else x >= limit)
        return not bad or st.fail(loc, "%s is %s %s %s" % (_short(x), words, keyword, _short(limit)))
    return check


def _multiple_check(m):
    def check(x, st, loc):
        if not _is_number(x) or _is_multiple(x, m):
            return True
        return st.fail(loc, "%s is not a multiple of %s (multipleOf)" % (_short(x), _short(m)))
    return check


def _length_check(lo, hi):
    def check(x, st, loc):
        if not isinstance(x, str):
            return True
        n = len(x)
        if lo is not None and n < lo:
            return st.fail(loc, "string of %d characters is shorter than minLength %d" % (n, lo))
        if hi is not None and n > hi:
            return st.fail(loc, "string of %d characters is longer than maxLength %d" % (n, hi))
        return True
    return check


def _pattern_check(rx, source):
    search = rx.search

    def check(x, st, loc):
        if not isinstance(x, str) or search(x):
            return True
        shown = source if len(source) <= 100 else source[:97] + "..."
        return st.fail(loc, "does not match pattern '%s'" % shown)
    return check


def _items_check(prefix, items):
    np = len(prefix)

    def check(x, st, loc):
        if not isinstance(x, (list, tuple)):
            return True
        if len(loc) >= _MAX_INSTANCE_DEPTH:
            st.fail(loc, "instance nested deeper than %d levels" % _MAX_INSTANCE_DEPTH)
            raise _Abort()
        ok = True
        for i, v in enumerate(x):
            fn = prefix[i] if i < np else items
            if fn is None:
                break
            if not fn(v, st, loc + (i,)):
                ok = False
                if len(st.errors) >= st.max_errors:
                    break
        return ok
    return check


def _size_check(lo, hi, noun, kinds):
    def check(x, st, loc):
        if not isinstance(x, kinds):
            return True
        n = len(x)
        if lo is not None and n < lo:
            return st.fail(loc, "has %d %s, fewer than min%s %d" % (n, noun, noun.title(), lo))
        if hi is not None and n > hi:
            return st.fail(loc, "has %d %s, more than max%s %d" % (n, noun, noun.title(), hi))
        return True
    return check


def _unique_check(x, st, loc):
    if not isinstance(x, (list, tuple)):
        return True
    seen = {}
    for i, v in enumerate(x):
        k = _canon(v)
        if k in seen:
            return st.fail(loc, "items %d and %d are equal (uniqueItems)" % (seen[k], i))
        seen[k] = i
    return True


def _contains_check(fn, cmin, cmax):
    def check(x, st, loc):
        if not isinstance(x, (list, tuple)):
            return True
        mark = len(st.errors)
        n = 0
        for i, v in enumerate(x):
            if fn(v, st, loc + (i,)):
                n += 1
        del st.errors[mark:]
        if n < cmin:
            if cmin == 1:
                return st.fail(loc, "no item matches the 'contains' schema")
            return st.fail(loc, "%d items match 'contains', fewer than minContains %d" % (n, cmin))
        if cmax is not None and n > cmax:
            return st.fail(loc, "%d items match 'contains', more than maxContains %d" % (n, cmax))
        return True
    return check


def _properties_check(props, pats, addl):
    def check(x, st, loc):
        if not isinstance(x, dict):
            return True
        if len(loc) >= _MAX_INSTANCE_DEPTH:
            st.fail(loc, "instance nested deeper than %d levels" % _MAX_INSTANCE_DEPTH)
            raise _Abort()
        ok = True
        for k, v in x.items():
            fn = props.get(k)
            matched = fn is not None
            if matched and not fn(v, st, loc + (k,)):
                ok = False
            for rx, pfn in pats:
                if rx.search(k):
                    matched = True
                    if not pfn(v, st, loc + (k,)):
                        ok = False
            if not matched and addl is not None:
                if addl is False:
                    ok = st.fail(loc, "unexpected property %s (additionalProperties)" % _short(k))
                elif not addl(v, st, loc + (k,)):
                    ok = False
            if not ok and len(st.errors) >= st.max_errors:
                break
        return ok
    return check


def _required_check(names):
    def check(x, st, loc):
        if not isinstance(x, dict):
            return True
        ok = True
        for n in names:
            if n not in x:
                ok = st.fail(loc, "missing required property %s" % _short(n))
        return ok
    return check


def _names_check(fn):
    def check(x, st, loc):
        if not isinstance(x, dict):
            return True
        ok = True
        for k in x:
            mark = len(st.errors)
            if not fn(k, st, loc):
                del st.errors[mark:]
                ok = st.fail(loc, "property name %s is invalid (propertyNames)" % _short(k))
        return ok
    return check


def _dep_required_check(deps):
    def check(x, st, loc):
        if not isinstance(x, dict):
            return True
        ok = True
        for k, needed in deps.items():
            if k in x:
                for n in needed:
                    if n not in x:
                        ok = st.fail(loc, "property %s requires property %s (dependentRequired)"
                                     % (_short(k), _short(n)))
        return ok
    return check


def _dep_schemas_check(deps):
    def check(x, st, loc):
        if not isinstance(x, dict):
            return True
        ok = True
        for k, fn in deps.items():
            if k in x and not fn(x, st, loc):
                ok = False
        return ok
    return check


def _all_of(fns):
    return _all_checks(fns)


def _any_of(fns):
    def check(x, st, loc):
        mark = len(st.errors)
        for fn in fns:
            if fn(x, st, loc):
                del st.errors[mark:]
                return True
        first = st.errors[mark:mark + 2]
        del st.errors[mark:]
        detail = "; ".join(first)
        return st.fail(loc, "does not match any schema in anyOf" +
                       (" (%s)" % detail if detail else ""))
    return check


def _one_of(fns):
    def check(x, st, loc):
        mark = len(st.errors)
        hits = []
        for i, fn in enumerate(fns):
            if fn(x, st, loc):
                hits.append(i)
                if len(hits) > 1:
                    break
        first = st.errors[mark:mark + 2]
        del st.errors[mark:]
        if len(hits) == 1:
            return True
        if hits:
            return st.fail(loc, "matches schemas %d and %d in oneOf; expected exactly one"
                           % (hits[0], hits[1]))
        detail = "; ".join(first)
        return st.fail(loc, "does not match any schema in oneOf" +
                       (" (%s)" % detail if detail else ""))
    return check


def _not_check(fn):
    def check(x, st, loc):
        mark = len(st.errors)
        ok = fn(x, st, loc)
        del st.errors[mark:]
        return not ok or st.fail(loc, "must not match the schema in 'not'")
    return check


def _if_check(if_fn, then_fn, else_fn):
    def check(x, st, loc):
        mark = len(st.errors)
        cond = if_fn(x, st, loc)
        del st.errors[mark:]
        fn = then_fn if cond else else_fn
        return fn is None or fn(x, st, loc)
    return check
