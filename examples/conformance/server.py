"""The tools the official MCP conformance suite asks of a server that asks its client.

Written only on mcp_stdio's public API. The suite speaks HTTP, so serve it
behind the gateway next to this file::

    python examples/conformance/http_gateway.py --port 3001 -- \
        python examples/conformance/server.py
    npx @modelcontextprotocol/conformance server --url http://localhost:3001/mcp \
        --scenario input-required-result-multiple-input-requests

(the suite needs Node 22 or later; .ci/run installs it and runs the
scenarios through the Conformance test).
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

import mcp_stdio  # noqa: E402
from mcp_stdio import Context, Form, Roots, Sample  # noqa: E402

server = mcp_stdio.Server("conformance-asking", "1.0")


def _form(**properties):
    return {"type": "object", "properties": properties, "required": list(properties)}


STRING = {"type": "string"}


@server.tool
def test_input_required_result_elicitation(ctx: Context) -> str:
    """Ask the user's name, then greet them."""
    answer = ctx.elicit("What is your name?", _form(name=STRING), key="user_name")
    return "Hello, %s!" % answer.content["name"] if answer.accepted else "No name given."


@server.tool
def test_input_required_result_sampling(ctx: Context) -> str:
    """Ask the client's model a question."""
    return "The model says: " + ctx.sample("What is the capital of France?", max_tokens=100,
                                           key="capital_question").text


@server.tool
def test_input_required_result_list_roots(ctx: Context) -> str:
    """List the client's roots."""
    roots = ctx.roots(key="client_roots")
    return "Roots: " + ", ".join(r["uri"] for r in roots)


@server.tool
def test_input_required_result_request_state(ctx: Context) -> str:
    """Ask for a confirmation; the signed requestState is checked before this runs again."""
    answer = ctx.elicit("Please confirm", _form(ok={"type": "boolean"}), key="confirm")
    return "state-ok: %s" % answer.action


@server.tool
def test_input_required_result_multiple_inputs(ctx: Context) -> str:
    """Ask three questions in one round: a form, the model and the roots."""
    a = ctx.ask(user_name=Form("What is your name?", _form(name=STRING)),
                greeting=Sample("Generate a greeting", max_tokens=50),
                client_roots=Roots())
    name = a["user_name"].content["name"] if a["user_name"].accepted else "someone"
    return "%s, %s (%d roots)" % (a["greeting"].text, name, len(a["client_roots"]))


@server.tool
def test_input_required_result_multi_round(ctx: Context) -> str:
    """Ask two questions, one round each."""
    name = ctx.elicit("Step 1: What is your name?", _form(name=STRING), key="step1")
    color = ctx.elicit("Step 2: What is your favorite color?", _form(color=STRING), key="step2")
    return "%s likes %s" % ((name.content or {}).get("name"), (color.content or {}).get("color"))


@server.prompt
def test_input_required_result_prompt(ctx: Context) -> str:
    """A prompt that asks for its context first."""
    answer = ctx.elicit("What context should the prompt use?", _form(context=STRING),
                        key="user_context")
    return "Use this context: %s" % (answer.content or {}).get("context")


@server.tool
def test_sampling(prompt: str, ctx: Context) -> str:
    """Ask the client's model to answer prompt."""
    ctx.require("sampling")
    return "LLM response: " + ctx.sample(prompt, max_tokens=100).text


@server.tool
def test_elicitation(message: str, ctx: Context) -> str:
    """Ask the user for a username and an email address."""
    answer = ctx.elicit(message, {"type": "object", "properties": {
        "username": {"type": "string", "description": "User's response"},
        "email": {"type": "string", "description": "User's email address"}},
        "required": ["username", "email"]})
    return "User response: action=%s, content=%s" % (answer.action, json.dumps(answer.content))


@server.tool
def test_elicitation_sep1034_defaults(ctx: Context) -> str:
    """Ask a form whose fields all have defaults."""
    answer = ctx.elicit("Please review the defaults", {"type": "object", "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {"type": "string", "enum": ["active", "inactive", "pending"],
                   "default": "active"},
        "verified": {"type": "boolean", "default": True}}})
    return "Elicitation completed: action=%s, content=%s" % (answer.action,
                                                             json.dumps(answer.content))


@server.tool
def test_elicitation_sep1330_enums(ctx: Context) -> str:
    """Ask a form with each kind of enum field."""
    answer = ctx.elicit("Pick options", {"type": "object", "properties": {
        "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
        "titledSingle": {"type": "string", "oneOf": [
            {"const": "value1", "title": "First Option"},
            {"const": "value2", "title": "Second Option"},
            {"const": "value3", "title": "Third Option"}]},
        "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                       "enumNames": ["Option One", "Option Two", "Option Three"]},
        "untitledMulti": {"type": "array", "items": {
            "type": "string", "enum": ["option1", "option2", "option3"]}},
        "titledMulti": {"type": "array", "items": {"anyOf": [
            {"const": "value1", "title": "First Choice"},
            {"const": "value2", "title": "Second Choice"},
            {"const": "value3", "title": "Third Choice"}]}}}})
    return "Elicitation completed: action=%s, content=%s" % (answer.action,
                                                             json.dumps(answer.content))


# Diagnostic tools of the suite's stateless scenario.
@server.tool
def test_missing_capability(ctx: Context) -> str:
    """Needs the client's sampling capability."""
    ctx.require("sampling")
    return "sampling is available"


@server.tool
def test_streaming_elicitation(ctx: Context) -> str:
    """Ask a question: an InputRequiredResult, never a request on the response stream."""
    return ctx.elicit("Continue?", _form(ok={"type": "boolean"})).action


@server.tool
def test_logging_tool(ctx: Context) -> str:
    """Log at info: sent only to a request that asked for logs."""
    ctx.log("info", "test_logging_tool ran")
    return "logged"


if __name__ == "__main__":
    raise SystemExit(server.run())
