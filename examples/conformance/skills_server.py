"""A server of Agent Skills for the official conformance suite's skills scenarios.

Written only on mcp_stdio's public API: one call serves the folder beside this
file (a skill with a subfolder and a binary asset, one under a team/ prefix, and
a skill nested inside it). The suite speaks HTTP, so serve it behind the gateway::

    python examples/conformance/http_gateway.py --port 3002 -- \\
        python examples/conformance/skills_server.py
    npx @modelcontextprotocol/conformance server --url http://localhost:3002/mcp \\
        --scenario sep-2640-skills-enumeration
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", ".."))

import mcp_stdio  # noqa: E402

server = mcp_stdio.Server("conformance-skills", "1.0")
server.serve_skills(os.path.join(HERE, "skills"))

if __name__ == "__main__":
    raise SystemExit(server.run())
