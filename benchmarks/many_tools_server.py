"""A user's server with 200 decorated tools of realistic signatures (generated, fixed seed).

bench_stdio.py measures its cold start: every tool's schema is built from its signature and
docstring before the first request is answered.
"""

import os
import sys
from typing import Optional

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import mcp_stdio  # noqa: E402

server = mcp_stdio.Server("many-tools", "1.0")


@server.tool
def tool_000(p0_int: int) -> str:
    """Do the work of tool number 0 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 0.
    """
    return "ok"


@server.tool
def tool_001(p0_float: float, p1_str: str = "x") -> str:
    """Do the work of tool number 1 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 1.
        p1_str: The str parameter number 1 of tool 1.
    """
    return "ok"


@server.tool
def tool_002(p0_bool: bool) -> dict:
    """Do the work of tool number 2 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 2.
    """
    return {"tool": 2}


@server.tool
def tool_003(p0_bool: bool, p1_int: Optional[int] = None, p2_str: str = "x", p3_bool: bool = False) -> str:
    """Do the work of tool number 3 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 3.
        p1_int: The int parameter number 1 of tool 3.
        p2_str: The str parameter number 2 of tool 3.
        p3_bool: The bool parameter number 3 of tool 3.
    """
    return "ok"


@server.tool
def tool_004(p0_bool: bool, p1_int: int = 10, p2_bool: bool = False, p3_str: str = "x") -> str:
    """Do the work of tool number 4 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 4.
        p1_int: The int parameter number 1 of tool 4.
        p2_bool: The bool parameter number 2 of tool 4.
        p3_str: The str parameter number 3 of tool 4.
    """
    return "ok"


@server.tool
def tool_005(p0_bool: bool, p1_int: int = 10, p2_bool: bool = False, p3_str: str = "x") -> dict:
    """Do the work of tool number 5 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 5.
        p1_int: The int parameter number 1 of tool 5.
        p2_bool: The bool parameter number 2 of tool 5.
        p3_str: The str parameter number 3 of tool 5.
    """
    return {"tool": 5}


@server.tool
def tool_006(p0_int: int) -> str:
    """Do the work of tool number 6 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 6.
    """
    return "ok"


@server.tool
def tool_007(p0_float: float) -> str:
    """Do the work of tool number 7 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 7.
    """
    return "ok"


@server.tool
def tool_008(p0_bool: bool, p1_float: float = 0.5, p2_int: Optional[int] = None, p3_float: float = 0.5) -> dict:
    """Do the work of tool number 8 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 8.
        p1_float: The float parameter number 1 of tool 8.
        p2_int: The int parameter number 2 of tool 8.
        p3_float: The float parameter number 3 of tool 8.
    """
    return {"tool": 8}


@server.tool
def tool_009(p0_float: float) -> dict:
    """Do the work of tool number 9 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 9.
    """
    return {"tool": 9}


@server.tool
def tool_010(p0_int: int) -> str:
    """Do the work of tool number 10 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 10.
    """
    return "ok"


@server.tool
def tool_011(p0_str: str, p1_str: str = "x", p2_float: Optional[float] = None) -> dict:
    """Do the work of tool number 11 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 11.
        p1_str: The str parameter number 1 of tool 11.
        p2_float: The float parameter number 2 of tool 11.
    """
    return {"tool": 11}


@server.tool
def tool_012(p0_float: float) -> dict:
    """Do the work of tool number 12 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 12.
    """
    return {"tool": 12}


@server.tool
def tool_013(p0_str: str, p1_int: Optional[int] = None, p2_bool: bool = False) -> dict:
    """Do the work of tool number 13 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 13.
        p1_int: The int parameter number 1 of tool 13.
        p2_bool: The bool parameter number 2 of tool 13.
    """
    return {"tool": 13}


@server.tool
def tool_014(p0_str: str, p1_int: int = 10) -> dict:
    """Do the work of tool number 14 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 14.
        p1_int: The int parameter number 1 of tool 14.
    """
    return {"tool": 14}


@server.tool
def tool_015(p0_float: float) -> dict:
    """Do the work of tool number 15 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 15.
    """
    return {"tool": 15}


@server.tool
def tool_016(p0_str: str) -> str:
    """Do the work of tool number 16 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 16.
    """
    return "ok"


@server.tool
def tool_017(p0_str: str, p1_float: Optional[float] = None, p2_int: int = 10) -> dict:
    """Do the work of tool number 17 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 17.
        p1_float: The float parameter number 1 of tool 17.
        p2_int: The int parameter number 2 of tool 17.
    """
    return {"tool": 17}


@server.tool
def tool_018(p0_str: str, p1_bool: bool = False) -> dict:
    """Do the work of tool number 18 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 18.
        p1_bool: The bool parameter number 1 of tool 18.
    """
    return {"tool": 18}


@server.tool
def tool_019(p0_int: int, p1_str: Optional[str] = None) -> dict:
    """Do the work of tool number 19 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 19.
        p1_str: The str parameter number 1 of tool 19.
    """
    return {"tool": 19}


@server.tool
def tool_020(p0_str: str) -> str:
    """Do the work of tool number 20 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 20.
    """
    return "ok"


@server.tool
def tool_021(p0_int: int) -> str:
    """Do the work of tool number 21 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 21.
    """
    return "ok"


@server.tool
def tool_022(p0_bool: bool, p1_str: str = "x", p2_int: int = 10, p3_int: int = 10) -> str:
    """Do the work of tool number 22 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 22.
        p1_str: The str parameter number 1 of tool 22.
        p2_int: The int parameter number 2 of tool 22.
        p3_int: The int parameter number 3 of tool 22.
    """
    return "ok"


@server.tool
def tool_023(p0_str: str, p1_bool: bool = False, p2_int: int = 10, p3_float: float = 0.5) -> dict:
    """Do the work of tool number 23 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 23.
        p1_bool: The bool parameter number 1 of tool 23.
        p2_int: The int parameter number 2 of tool 23.
        p3_float: The float parameter number 3 of tool 23.
    """
    return {"tool": 23}


@server.tool
def tool_024(p0_str: str) -> str:
    """Do the work of tool number 24 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 24.
    """
    return "ok"


@server.tool
def tool_025(p0_str: str, p1_str: str = "x", p2_int: int = 10, p3_str: Optional[str] = None) -> str:
    """Do the work of tool number 25 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 25.
        p1_str: The str parameter number 1 of tool 25.
        p2_int: The int parameter number 2 of tool 25.
        p3_str: The str parameter number 3 of tool 25.
    """
    return "ok"


@server.tool
def tool_026(p0_bool: bool, p1_str: str = "x", p2_int: int = 10, p3_float: float = 0.5) -> str:
    """Do the work of tool number 26 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 26.
        p1_str: The str parameter number 1 of tool 26.
        p2_int: The int parameter number 2 of tool 26.
        p3_float: The float parameter number 3 of tool 26.
    """
    return "ok"


@server.tool
def tool_027(p0_int: int, p1_bool: Optional[bool] = None, p2_bool: Optional[bool] = None, p3_bool: bool = False) -> str:
    """Do the work of tool number 27 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 27.
        p1_bool: The bool parameter number 1 of tool 27.
        p2_bool: The bool parameter number 2 of tool 27.
        p3_bool: The bool parameter number 3 of tool 27.
    """
    return "ok"


@server.tool
def tool_028(p0_bool: bool) -> dict:
    """Do the work of tool number 28 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 28.
    """
    return {"tool": 28}


@server.tool
def tool_029(p0_float: float, p1_float: float = 0.5) -> dict:
    """Do the work of tool number 29 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 29.
        p1_float: The float parameter number 1 of tool 29.
    """
    return {"tool": 29}


@server.tool
def tool_030(p0_bool: bool, p1_bool: bool = False) -> dict:
    """Do the work of tool number 30 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 30.
        p1_bool: The bool parameter number 1 of tool 30.
    """
    return {"tool": 30}


@server.tool
def tool_031(p0_float: float, p1_bool: bool = False) -> str:
    """Do the work of tool number 31 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 31.
        p1_bool: The bool parameter number 1 of tool 31.
    """
    return "ok"


@server.tool
def tool_032(p0_bool: bool, p1_int: int = 10, p2_int: Optional[int] = None, p3_str: str = "x") -> dict:
    """Do the work of tool number 32 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 32.
        p1_int: The int parameter number 1 of tool 32.
        p2_int: The int parameter number 2 of tool 32.
        p3_str: The str parameter number 3 of tool 32.
    """
    return {"tool": 32}


@server.tool
def tool_033(p0_str: str, p1_float: float = 0.5, p2_float: float = 0.5) -> dict:
    """Do the work of tool number 33 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 33.
        p1_float: The float parameter number 1 of tool 33.
        p2_float: The float parameter number 2 of tool 33.
    """
    return {"tool": 33}


@server.tool
def tool_034(p0_bool: bool, p1_int: int = 10, p2_str: str = "x") -> dict:
    """Do the work of tool number 34 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 34.
        p1_int: The int parameter number 1 of tool 34.
        p2_str: The str parameter number 2 of tool 34.
    """
    return {"tool": 34}


@server.tool
def tool_035(p0_str: str, p1_int: int = 10, p2_float: float = 0.5) -> dict:
    """Do the work of tool number 35 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 35.
        p1_int: The int parameter number 1 of tool 35.
        p2_float: The float parameter number 2 of tool 35.
    """
    return {"tool": 35}


@server.tool
def tool_036(p0_int: int) -> dict:
    """Do the work of tool number 36 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 36.
    """
    return {"tool": 36}


@server.tool
def tool_037(p0_float: float, p1_float: float = 0.5, p2_bool: bool = False, p3_int: int = 10) -> dict:
    """Do the work of tool number 37 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 37.
        p1_float: The float parameter number 1 of tool 37.
        p2_bool: The bool parameter number 2 of tool 37.
        p3_int: The int parameter number 3 of tool 37.
    """
    return {"tool": 37}


@server.tool
def tool_038(p0_bool: bool, p1_str: str = "x") -> str:
    """Do the work of tool number 38 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 38.
        p1_str: The str parameter number 1 of tool 38.
    """
    return "ok"


@server.tool
def tool_039(p0_float: float) -> str:
    """Do the work of tool number 39 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 39.
    """
    return "ok"


@server.tool
def tool_040(p0_int: int, p1_int: int = 10) -> str:
    """Do the work of tool number 40 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 40.
        p1_int: The int parameter number 1 of tool 40.
    """
    return "ok"


@server.tool
def tool_041(p0_str: str, p1_float: Optional[float] = None, p2_int: int = 10, p3_str: str = "x") -> str:
    """Do the work of tool number 41 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 41.
        p1_float: The float parameter number 1 of tool 41.
        p2_int: The int parameter number 2 of tool 41.
        p3_str: The str parameter number 3 of tool 41.
    """
    return "ok"


@server.tool
def tool_042(p0_float: float, p1_int: int = 10) -> dict:
    """Do the work of tool number 42 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 42.
        p1_int: The int parameter number 1 of tool 42.
    """
    return {"tool": 42}


@server.tool
def tool_043(p0_str: str) -> dict:
    """Do the work of tool number 43 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 43.
    """
    return {"tool": 43}


@server.tool
def tool_044(p0_int: int, p1_int: int = 10, p2_bool: Optional[bool] = None) -> str:
    """Do the work of tool number 44 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 44.
        p1_int: The int parameter number 1 of tool 44.
        p2_bool: The bool parameter number 2 of tool 44.
    """
    return "ok"


@server.tool
def tool_045(p0_int: int, p1_bool: Optional[bool] = None) -> dict:
    """Do the work of tool number 45 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 45.
        p1_bool: The bool parameter number 1 of tool 45.
    """
    return {"tool": 45}


@server.tool
def tool_046(p0_float: float, p1_int: int = 10, p2_int: Optional[int] = None) -> str:
    """Do the work of tool number 46 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 46.
        p1_int: The int parameter number 1 of tool 46.
        p2_int: The int parameter number 2 of tool 46.
    """
    return "ok"


@server.tool
def tool_047(p0_int: int, p1_str: str = "x", p2_bool: bool = False, p3_int: Optional[int] = None) -> dict:
    """Do the work of tool number 47 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 47.
        p1_str: The str parameter number 1 of tool 47.
        p2_bool: The bool parameter number 2 of tool 47.
        p3_int: The int parameter number 3 of tool 47.
    """
    return {"tool": 47}


@server.tool
def tool_048(p0_float: float, p1_int: int = 10) -> str:
    """Do the work of tool number 48 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 48.
        p1_int: The int parameter number 1 of tool 48.
    """
    return "ok"


@server.tool
def tool_049(p0_int: int, p1_int: int = 10, p2_float: Optional[float] = None, p3_int: int = 10) -> str:
    """Do the work of tool number 49 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 49.
        p1_int: The int parameter number 1 of tool 49.
        p2_float: The float parameter number 2 of tool 49.
        p3_int: The int parameter number 3 of tool 49.
    """
    return "ok"


@server.tool
def tool_050(p0_int: int, p1_int: int = 10, p2_int: Optional[int] = None, p3_bool: Optional[bool] = None) -> dict:
    """Do the work of tool number 50 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 50.
        p1_int: The int parameter number 1 of tool 50.
        p2_int: The int parameter number 2 of tool 50.
        p3_bool: The bool parameter number 3 of tool 50.
    """
    return {"tool": 50}


@server.tool
def tool_051(p0_int: int, p1_str: str = "x", p2_float: float = 0.5, p3_str: str = "x") -> str:
    """Do the work of tool number 51 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 51.
        p1_str: The str parameter number 1 of tool 51.
        p2_float: The float parameter number 2 of tool 51.
        p3_str: The str parameter number 3 of tool 51.
    """
    return "ok"


@server.tool
def tool_052(p0_int: int, p1_bool: bool = False, p2_float: Optional[float] = None) -> str:
    """Do the work of tool number 52 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 52.
        p1_bool: The bool parameter number 1 of tool 52.
        p2_float: The float parameter number 2 of tool 52.
    """
    return "ok"


@server.tool
def tool_053(p0_int: int) -> dict:
    """Do the work of tool number 53 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 53.
    """
    return {"tool": 53}


@server.tool
def tool_054(p0_str: str, p1_int: int = 10) -> dict:
    """Do the work of tool number 54 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 54.
        p1_int: The int parameter number 1 of tool 54.
    """
    return {"tool": 54}


@server.tool
def tool_055(p0_float: float) -> str:
    """Do the work of tool number 55 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 55.
    """
    return "ok"


@server.tool
def tool_056(p0_int: int, p1_float: float = 0.5) -> dict:
    """Do the work of tool number 56 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 56.
        p1_float: The float parameter number 1 of tool 56.
    """
    return {"tool": 56}


@server.tool
def tool_057(p0_bool: bool, p1_bool: bool = False, p2_int: int = 10, p3_float: float = 0.5) -> str:
    """Do the work of tool number 57 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 57.
        p1_bool: The bool parameter number 1 of tool 57.
        p2_int: The int parameter number 2 of tool 57.
        p3_float: The float parameter number 3 of tool 57.
    """
    return "ok"


@server.tool
def tool_058(p0_bool: bool, p1_bool: bool = False, p2_int: int = 10, p3_float: float = 0.5) -> dict:
    """Do the work of tool number 58 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 58.
        p1_bool: The bool parameter number 1 of tool 58.
        p2_int: The int parameter number 2 of tool 58.
        p3_float: The float parameter number 3 of tool 58.
    """
    return {"tool": 58}


@server.tool
def tool_059(p0_float: float, p1_float: float = 0.5) -> str:
    """Do the work of tool number 59 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 59.
        p1_float: The float parameter number 1 of tool 59.
    """
    return "ok"


@server.tool
def tool_060(p0_bool: bool) -> dict:
    """Do the work of tool number 60 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 60.
    """
    return {"tool": 60}


@server.tool
def tool_061(p0_int: int) -> str:
    """Do the work of tool number 61 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 61.
    """
    return "ok"


@server.tool
def tool_062(p0_int: int, p1_str: str = "x", p2_bool: bool = False, p3_str: str = "x") -> dict:
    """Do the work of tool number 62 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 62.
        p1_str: The str parameter number 1 of tool 62.
        p2_bool: The bool parameter number 2 of tool 62.
        p3_str: The str parameter number 3 of tool 62.
    """
    return {"tool": 62}


@server.tool
def tool_063(p0_str: str, p1_str: str = "x", p2_str: str = "x") -> str:
    """Do the work of tool number 63 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 63.
        p1_str: The str parameter number 1 of tool 63.
        p2_str: The str parameter number 2 of tool 63.
    """
    return "ok"


@server.tool
def tool_064(p0_float: float) -> dict:
    """Do the work of tool number 64 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 64.
    """
    return {"tool": 64}


@server.tool
def tool_065(p0_float: float, p1_int: int = 10) -> str:
    """Do the work of tool number 65 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 65.
        p1_int: The int parameter number 1 of tool 65.
    """
    return "ok"


@server.tool
def tool_066(p0_bool: bool, p1_int: int = 10, p2_float: Optional[float] = None, p3_float: float = 0.5) -> str:
    """Do the work of tool number 66 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 66.
        p1_int: The int parameter number 1 of tool 66.
        p2_float: The float parameter number 2 of tool 66.
        p3_float: The float parameter number 3 of tool 66.
    """
    return "ok"


@server.tool
def tool_067(p0_int: int, p1_bool: bool = False, p2_bool: bool = False, p3_float: float = 0.5) -> dict:
    """Do the work of tool number 67 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 67.
        p1_bool: The bool parameter number 1 of tool 67.
        p2_bool: The bool parameter number 2 of tool 67.
        p3_float: The float parameter number 3 of tool 67.
    """
    return {"tool": 67}


@server.tool
def tool_068(p0_bool: bool, p1_int: int = 10) -> str:
    """Do the work of tool number 68 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 68.
        p1_int: The int parameter number 1 of tool 68.
    """
    return "ok"


@server.tool
def tool_069(p0_int: int, p1_float: float = 0.5, p2_float: float = 0.5, p3_float: Optional[float] = None) -> dict:
    """Do the work of tool number 69 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 69.
        p1_float: The float parameter number 1 of tool 69.
        p2_float: The float parameter number 2 of tool 69.
        p3_float: The float parameter number 3 of tool 69.
    """
    return {"tool": 69}


@server.tool
def tool_070(p0_float: float, p1_bool: bool = False, p2_bool: bool = False) -> dict:
    """Do the work of tool number 70 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 70.
        p1_bool: The bool parameter number 1 of tool 70.
        p2_bool: The bool parameter number 2 of tool 70.
    """
    return {"tool": 70}


@server.tool
def tool_071(p0_str: str, p1_float: Optional[float] = None, p2_str: str = "x", p3_float: float = 0.5) -> str:
    """Do the work of tool number 71 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 71.
        p1_float: The float parameter number 1 of tool 71.
        p2_str: The str parameter number 2 of tool 71.
        p3_float: The float parameter number 3 of tool 71.
    """
    return "ok"


@server.tool
def tool_072(p0_float: float) -> dict:
    """Do the work of tool number 72 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 72.
    """
    return {"tool": 72}


@server.tool
def tool_073(p0_bool: bool) -> dict:
    """Do the work of tool number 73 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 73.
    """
    return {"tool": 73}


@server.tool
def tool_074(p0_float: float) -> str:
    """Do the work of tool number 74 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 74.
    """
    return "ok"


@server.tool
def tool_075(p0_float: float, p1_float: float = 0.5, p2_float: Optional[float] = None) -> dict:
    """Do the work of tool number 75 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 75.
        p1_float: The float parameter number 1 of tool 75.
        p2_float: The float parameter number 2 of tool 75.
    """
    return {"tool": 75}


@server.tool
def tool_076(p0_str: str, p1_int: int = 10, p2_bool: bool = False) -> dict:
    """Do the work of tool number 76 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 76.
        p1_int: The int parameter number 1 of tool 76.
        p2_bool: The bool parameter number 2 of tool 76.
    """
    return {"tool": 76}


@server.tool
def tool_077(p0_int: int) -> dict:
    """Do the work of tool number 77 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 77.
    """
    return {"tool": 77}


@server.tool
def tool_078(p0_int: int, p1_int: int = 10, p2_float: float = 0.5, p3_bool: Optional[bool] = None) -> str:
    """Do the work of tool number 78 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 78.
        p1_int: The int parameter number 1 of tool 78.
        p2_float: The float parameter number 2 of tool 78.
        p3_bool: The bool parameter number 3 of tool 78.
    """
    return "ok"


@server.tool
def tool_079(p0_bool: bool, p1_bool: bool = False) -> str:
    """Do the work of tool number 79 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 79.
        p1_bool: The bool parameter number 1 of tool 79.
    """
    return "ok"


@server.tool
def tool_080(p0_float: float, p1_int: Optional[int] = None, p2_float: Optional[float] = None) -> str:
    """Do the work of tool number 80 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 80.
        p1_int: The int parameter number 1 of tool 80.
        p2_float: The float parameter number 2 of tool 80.
    """
    return "ok"


@server.tool
def tool_081(p0_bool: bool) -> dict:
    """Do the work of tool number 81 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 81.
    """
    return {"tool": 81}


@server.tool
def tool_082(p0_bool: bool, p1_str: Optional[str] = None, p2_int: int = 10, p3_int: int = 10) -> str:
    """Do the work of tool number 82 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 82.
        p1_str: The str parameter number 1 of tool 82.
        p2_int: The int parameter number 2 of tool 82.
        p3_int: The int parameter number 3 of tool 82.
    """
    return "ok"


@server.tool
def tool_083(p0_str: str) -> dict:
    """Do the work of tool number 83 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 83.
    """
    return {"tool": 83}


@server.tool
def tool_084(p0_float: float, p1_float: float = 0.5, p2_int: Optional[int] = None, p3_bool: bool = False) -> str:
    """Do the work of tool number 84 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 84.
        p1_float: The float parameter number 1 of tool 84.
        p2_int: The int parameter number 2 of tool 84.
        p3_bool: The bool parameter number 3 of tool 84.
    """
    return "ok"


@server.tool
def tool_085(p0_float: float, p1_float: float = 0.5, p2_int: int = 10, p3_float: float = 0.5) -> dict:
    """Do the work of tool number 85 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 85.
        p1_float: The float parameter number 1 of tool 85.
        p2_int: The int parameter number 2 of tool 85.
        p3_float: The float parameter number 3 of tool 85.
    """
    return {"tool": 85}


@server.tool
def tool_086(p0_float: float, p1_str: str = "x") -> dict:
    """Do the work of tool number 86 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 86.
        p1_str: The str parameter number 1 of tool 86.
    """
    return {"tool": 86}


@server.tool
def tool_087(p0_float: float, p1_int: Optional[int] = None) -> str:
    """Do the work of tool number 87 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 87.
        p1_int: The int parameter number 1 of tool 87.
    """
    return "ok"


@server.tool
def tool_088(p0_float: float, p1_str: str = "x", p2_int: int = 10, p3_float: float = 0.5) -> dict:
    """Do the work of tool number 88 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 88.
        p1_str: The str parameter number 1 of tool 88.
        p2_int: The int parameter number 2 of tool 88.
        p3_float: The float parameter number 3 of tool 88.
    """
    return {"tool": 88}


@server.tool
def tool_089(p0_float: float, p1_str: str = "x", p2_float: float = 0.5) -> str:
    """Do the work of tool number 89 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 89.
        p1_str: The str parameter number 1 of tool 89.
        p2_float: The float parameter number 2 of tool 89.
    """
    return "ok"


@server.tool
def tool_090(p0_int: int) -> dict:
    """Do the work of tool number 90 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 90.
    """
    return {"tool": 90}


@server.tool
def tool_091(p0_float: float, p1_bool: bool = False, p2_int: Optional[int] = None) -> str:
    """Do the work of tool number 91 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 91.
        p1_bool: The bool parameter number 1 of tool 91.
        p2_int: The int parameter number 2 of tool 91.
    """
    return "ok"


@server.tool
def tool_092(p0_str: str, p1_str: str = "x") -> str:
    """Do the work of tool number 92 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 92.
        p1_str: The str parameter number 1 of tool 92.
    """
    return "ok"


@server.tool
def tool_093(p0_float: float) -> dict:
    """Do the work of tool number 93 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 93.
    """
    return {"tool": 93}


@server.tool
def tool_094(p0_bool: bool) -> dict:
    """Do the work of tool number 94 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 94.
    """
    return {"tool": 94}


@server.tool
def tool_095(p0_float: float, p1_float: float = 0.5) -> str:
    """Do the work of tool number 95 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 95.
        p1_float: The float parameter number 1 of tool 95.
    """
    return "ok"


@server.tool
def tool_096(p0_str: str, p1_bool: bool = False, p2_int: int = 10, p3_str: str = "x") -> dict:
    """Do the work of tool number 96 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 96.
        p1_bool: The bool parameter number 1 of tool 96.
        p2_int: The int parameter number 2 of tool 96.
        p3_str: The str parameter number 3 of tool 96.
    """
    return {"tool": 96}


@server.tool
def tool_097(p0_bool: bool, p1_int: int = 10, p2_str: str = "x", p3_int: Optional[int] = None) -> str:
    """Do the work of tool number 97 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 97.
        p1_int: The int parameter number 1 of tool 97.
        p2_str: The str parameter number 2 of tool 97.
        p3_int: The int parameter number 3 of tool 97.
    """
    return "ok"


@server.tool
def tool_098(p0_float: float, p1_str: str = "x", p2_int: int = 10) -> dict:
    """Do the work of tool number 98 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 98.
        p1_str: The str parameter number 1 of tool 98.
        p2_int: The int parameter number 2 of tool 98.
    """
    return {"tool": 98}


@server.tool
def tool_099(p0_float: float, p1_float: Optional[float] = None) -> str:
    """Do the work of tool number 99 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 99.
        p1_float: The float parameter number 1 of tool 99.
    """
    return "ok"


@server.tool
def tool_100(p0_bool: bool) -> str:
    """Do the work of tool number 100 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 100.
    """
    return "ok"


@server.tool
def tool_101(p0_float: float, p1_float: float = 0.5) -> dict:
    """Do the work of tool number 101 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 101.
        p1_float: The float parameter number 1 of tool 101.
    """
    return {"tool": 101}


@server.tool
def tool_102(p0_int: int, p1_float: float = 0.5, p2_int: int = 10, p3_bool: bool = False) -> str:
    """Do the work of tool number 102 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 102.
        p1_float: The float parameter number 1 of tool 102.
        p2_int: The int parameter number 2 of tool 102.
        p3_bool: The bool parameter number 3 of tool 102.
    """
    return "ok"


@server.tool
def tool_103(p0_str: str, p1_bool: bool = False, p2_str: str = "x") -> str:
    """Do the work of tool number 103 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 103.
        p1_bool: The bool parameter number 1 of tool 103.
        p2_str: The str parameter number 2 of tool 103.
    """
    return "ok"


@server.tool
def tool_104(p0_bool: bool, p1_str: Optional[str] = None, p2_int: int = 10, p3_bool: bool = False) -> dict:
    """Do the work of tool number 104 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 104.
        p1_str: The str parameter number 1 of tool 104.
        p2_int: The int parameter number 2 of tool 104.
        p3_bool: The bool parameter number 3 of tool 104.
    """
    return {"tool": 104}


@server.tool
def tool_105(p0_bool: bool, p1_bool: bool = False, p2_bool: bool = False, p3_int: int = 10) -> str:
    """Do the work of tool number 105 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 105.
        p1_bool: The bool parameter number 1 of tool 105.
        p2_bool: The bool parameter number 2 of tool 105.
        p3_int: The int parameter number 3 of tool 105.
    """
    return "ok"


@server.tool
def tool_106(p0_str: str, p1_int: int = 10) -> str:
    """Do the work of tool number 106 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 106.
        p1_int: The int parameter number 1 of tool 106.
    """
    return "ok"


@server.tool
def tool_107(p0_bool: bool) -> str:
    """Do the work of tool number 107 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 107.
    """
    return "ok"


@server.tool
def tool_108(p0_str: str, p1_bool: bool = False) -> str:
    """Do the work of tool number 108 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 108.
        p1_bool: The bool parameter number 1 of tool 108.
    """
    return "ok"


@server.tool
def tool_109(p0_str: str, p1_float: float = 0.5) -> str:
    """Do the work of tool number 109 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 109.
        p1_float: The float parameter number 1 of tool 109.
    """
    return "ok"


@server.tool
def tool_110(p0_bool: bool, p1_bool: bool = False) -> dict:
    """Do the work of tool number 110 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 110.
        p1_bool: The bool parameter number 1 of tool 110.
    """
    return {"tool": 110}


@server.tool
def tool_111(p0_float: float, p1_bool: bool = False, p2_float: float = 0.5, p3_int: int = 10) -> str:
    """Do the work of tool number 111 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 111.
        p1_bool: The bool parameter number 1 of tool 111.
        p2_float: The float parameter number 2 of tool 111.
        p3_int: The int parameter number 3 of tool 111.
    """
    return "ok"


@server.tool
def tool_112(p0_float: float) -> dict:
    """Do the work of tool number 112 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 112.
    """
    return {"tool": 112}


@server.tool
def tool_113(p0_int: int, p1_str: str = "x", p2_int: Optional[int] = None, p3_bool: bool = False) -> dict:
    """Do the work of tool number 113 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 113.
        p1_str: The str parameter number 1 of tool 113.
        p2_int: The int parameter number 2 of tool 113.
        p3_bool: The bool parameter number 3 of tool 113.
    """
    return {"tool": 113}


@server.tool
def tool_114(p0_str: str, p1_float: Optional[float] = None) -> str:
    """Do the work of tool number 114 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 114.
        p1_float: The float parameter number 1 of tool 114.
    """
    return "ok"


@server.tool
def tool_115(p0_float: float, p1_float: float = 0.5, p2_float: float = 0.5, p3_float: float = 0.5) -> str:
    """Do the work of tool number 115 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 115.
        p1_float: The float parameter number 1 of tool 115.
        p2_float: The float parameter number 2 of tool 115.
        p3_float: The float parameter number 3 of tool 115.
    """
    return "ok"


@server.tool
def tool_116(p0_bool: bool, p1_float: float = 0.5) -> str:
    """Do the work of tool number 116 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 116.
        p1_float: The float parameter number 1 of tool 116.
    """
    return "ok"


@server.tool
def tool_117(p0_str: str, p1_bool: bool = False, p2_str: str = "x", p3_str: str = "x") -> dict:
    """Do the work of tool number 117 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 117.
        p1_bool: The bool parameter number 1 of tool 117.
        p2_str: The str parameter number 2 of tool 117.
        p3_str: The str parameter number 3 of tool 117.
    """
    return {"tool": 117}


@server.tool
def tool_118(p0_float: float, p1_int: int = 10, p2_str: str = "x", p3_int: int = 10) -> dict:
    """Do the work of tool number 118 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 118.
        p1_int: The int parameter number 1 of tool 118.
        p2_str: The str parameter number 2 of tool 118.
        p3_int: The int parameter number 3 of tool 118.
    """
    return {"tool": 118}


@server.tool
def tool_119(p0_bool: bool, p1_str: str = "x", p2_int: int = 10) -> str:
    """Do the work of tool number 119 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 119.
        p1_str: The str parameter number 1 of tool 119.
        p2_int: The int parameter number 2 of tool 119.
    """
    return "ok"


@server.tool
def tool_120(p0_float: float) -> str:
    """Do the work of tool number 120 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 120.
    """
    return "ok"


@server.tool
def tool_121(p0_int: int) -> str:
    """Do the work of tool number 121 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 121.
    """
    return "ok"


@server.tool
def tool_122(p0_float: float, p1_int: Optional[int] = None) -> dict:
    """Do the work of tool number 122 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 122.
        p1_int: The int parameter number 1 of tool 122.
    """
    return {"tool": 122}


@server.tool
def tool_123(p0_float: float, p1_str: str = "x") -> str:
    """Do the work of tool number 123 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 123.
        p1_str: The str parameter number 1 of tool 123.
    """
    return "ok"


@server.tool
def tool_124(p0_float: float, p1_float: float = 0.5, p2_str: str = "x") -> dict:
    """Do the work of tool number 124 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 124.
        p1_float: The float parameter number 1 of tool 124.
        p2_str: The str parameter number 2 of tool 124.
    """
    return {"tool": 124}


@server.tool
def tool_125(p0_int: int, p1_int: int = 10) -> dict:
    """Do the work of tool number 125 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 125.
        p1_int: The int parameter number 1 of tool 125.
    """
    return {"tool": 125}


@server.tool
def tool_126(p0_bool: bool, p1_str: str = "x", p2_int: int = 10, p3_str: str = "x") -> str:
    """Do the work of tool number 126 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 126.
        p1_str: The str parameter number 1 of tool 126.
        p2_int: The int parameter number 2 of tool 126.
        p3_str: The str parameter number 3 of tool 126.
    """
    return "ok"


@server.tool
def tool_127(p0_int: int, p1_str: str = "x", p2_str: str = "x", p3_bool: Optional[bool] = None) -> str:
    """Do the work of tool number 127 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 127.
        p1_str: The str parameter number 1 of tool 127.
        p2_str: The str parameter number 2 of tool 127.
        p3_bool: The bool parameter number 3 of tool 127.
    """
    return "ok"


@server.tool
def tool_128(p0_int: int, p1_int: int = 10, p2_bool: bool = False, p3_int: int = 10) -> str:
    """Do the work of tool number 128 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 128.
        p1_int: The int parameter number 1 of tool 128.
        p2_bool: The bool parameter number 2 of tool 128.
        p3_int: The int parameter number 3 of tool 128.
    """
    return "ok"


@server.tool
def tool_129(p0_bool: bool) -> dict:
    """Do the work of tool number 129 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 129.
    """
    return {"tool": 129}


@server.tool
def tool_130(p0_str: str) -> str:
    """Do the work of tool number 130 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 130.
    """
    return "ok"


@server.tool
def tool_131(p0_bool: bool) -> str:
    """Do the work of tool number 131 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 131.
    """
    return "ok"


@server.tool
def tool_132(p0_int: int, p1_float: float = 0.5, p2_str: str = "x", p3_int: int = 10) -> dict:
    """Do the work of tool number 132 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 132.
        p1_float: The float parameter number 1 of tool 132.
        p2_str: The str parameter number 2 of tool 132.
        p3_int: The int parameter number 3 of tool 132.
    """
    return {"tool": 132}


@server.tool
def tool_133(p0_str: str, p1_float: float = 0.5) -> str:
    """Do the work of tool number 133 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 133.
        p1_float: The float parameter number 1 of tool 133.
    """
    return "ok"


@server.tool
def tool_134(p0_int: int, p1_str: Optional[str] = None) -> dict:
    """Do the work of tool number 134 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 134.
        p1_str: The str parameter number 1 of tool 134.
    """
    return {"tool": 134}


@server.tool
def tool_135(p0_float: float, p1_float: float = 0.5, p2_str: str = "x") -> str:
    """Do the work of tool number 135 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 135.
        p1_float: The float parameter number 1 of tool 135.
        p2_str: The str parameter number 2 of tool 135.
    """
    return "ok"


@server.tool
def tool_136(p0_bool: bool) -> dict:
    """Do the work of tool number 136 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 136.
    """
    return {"tool": 136}


@server.tool
def tool_137(p0_bool: bool) -> dict:
    """Do the work of tool number 137 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 137.
    """
    return {"tool": 137}


@server.tool
def tool_138(p0_bool: bool, p1_str: str = "x", p2_bool: Optional[bool] = None, p3_float: float = 0.5) -> str:
    """Do the work of tool number 138 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 138.
        p1_str: The str parameter number 1 of tool 138.
        p2_bool: The bool parameter number 2 of tool 138.
        p3_float: The float parameter number 3 of tool 138.
    """
    return "ok"


@server.tool
def tool_139(p0_str: str, p1_int: int = 10, p2_float: float = 0.5) -> str:
    """Do the work of tool number 139 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 139.
        p1_int: The int parameter number 1 of tool 139.
        p2_float: The float parameter number 2 of tool 139.
    """
    return "ok"


@server.tool
def tool_140(p0_float: float, p1_float: float = 0.5) -> dict:
    """Do the work of tool number 140 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 140.
        p1_float: The float parameter number 1 of tool 140.
    """
    return {"tool": 140}


@server.tool
def tool_141(p0_float: float, p1_bool: Optional[bool] = None) -> dict:
    """Do the work of tool number 141 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 141.
        p1_bool: The bool parameter number 1 of tool 141.
    """
    return {"tool": 141}


@server.tool
def tool_142(p0_float: float, p1_int: int = 10, p2_float: float = 0.5) -> dict:
    """Do the work of tool number 142 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 142.
        p1_int: The int parameter number 1 of tool 142.
        p2_float: The float parameter number 2 of tool 142.
    """
    return {"tool": 142}


@server.tool
def tool_143(p0_bool: bool) -> str:
    """Do the work of tool number 143 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 143.
    """
    return "ok"


@server.tool
def tool_144(p0_float: float, p1_str: str = "x", p2_float: Optional[float] = None, p3_int: int = 10) -> dict:
    """Do the work of tool number 144 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 144.
        p1_str: The str parameter number 1 of tool 144.
        p2_float: The float parameter number 2 of tool 144.
        p3_int: The int parameter number 3 of tool 144.
    """
    return {"tool": 144}


@server.tool
def tool_145(p0_str: str, p1_bool: bool = False, p2_str: str = "x", p3_int: int = 10) -> str:
    """Do the work of tool number 145 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 145.
        p1_bool: The bool parameter number 1 of tool 145.
        p2_str: The str parameter number 2 of tool 145.
        p3_int: The int parameter number 3 of tool 145.
    """
    return "ok"


@server.tool
def tool_146(p0_float: float, p1_str: str = "x", p2_float: Optional[float] = None, p3_bool: Optional[bool] = None) -> str:
    """Do the work of tool number 146 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 146.
        p1_str: The str parameter number 1 of tool 146.
        p2_float: The float parameter number 2 of tool 146.
        p3_bool: The bool parameter number 3 of tool 146.
    """
    return "ok"


@server.tool
def tool_147(p0_int: int, p1_int: int = 10, p2_int: int = 10) -> str:
    """Do the work of tool number 147 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 147.
        p1_int: The int parameter number 1 of tool 147.
        p2_int: The int parameter number 2 of tool 147.
    """
    return "ok"


@server.tool
def tool_148(p0_float: float) -> dict:
    """Do the work of tool number 148 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 148.
    """
    return {"tool": 148}


@server.tool
def tool_149(p0_float: float, p1_int: int = 10, p2_float: float = 0.5, p3_str: str = "x") -> str:
    """Do the work of tool number 149 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 149.
        p1_int: The int parameter number 1 of tool 149.
        p2_float: The float parameter number 2 of tool 149.
        p3_str: The str parameter number 3 of tool 149.
    """
    return "ok"


@server.tool
def tool_150(p0_str: str, p1_int: int = 10, p2_str: Optional[str] = None) -> dict:
    """Do the work of tool number 150 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 150.
        p1_int: The int parameter number 1 of tool 150.
        p2_str: The str parameter number 2 of tool 150.
    """
    return {"tool": 150}


@server.tool
def tool_151(p0_int: int) -> str:
    """Do the work of tool number 151 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 151.
    """
    return "ok"


@server.tool
def tool_152(p0_bool: bool, p1_bool: Optional[bool] = None) -> dict:
    """Do the work of tool number 152 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 152.
        p1_bool: The bool parameter number 1 of tool 152.
    """
    return {"tool": 152}


@server.tool
def tool_153(p0_bool: bool, p1_str: str = "x") -> str:
    """Do the work of tool number 153 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 153.
        p1_str: The str parameter number 1 of tool 153.
    """
    return "ok"


@server.tool
def tool_154(p0_str: str, p1_int: int = 10, p2_bool: Optional[bool] = None) -> dict:
    """Do the work of tool number 154 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 154.
        p1_int: The int parameter number 1 of tool 154.
        p2_bool: The bool parameter number 2 of tool 154.
    """
    return {"tool": 154}


@server.tool
def tool_155(p0_str: str, p1_str: str = "x") -> str:
    """Do the work of tool number 155 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 155.
        p1_str: The str parameter number 1 of tool 155.
    """
    return "ok"


@server.tool
def tool_156(p0_bool: bool, p1_float: Optional[float] = None) -> dict:
    """Do the work of tool number 156 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 156.
        p1_float: The float parameter number 1 of tool 156.
    """
    return {"tool": 156}


@server.tool
def tool_157(p0_int: int, p1_str: Optional[str] = None, p2_str: str = "x", p3_int: int = 10) -> str:
    """Do the work of tool number 157 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 157.
        p1_str: The str parameter number 1 of tool 157.
        p2_str: The str parameter number 2 of tool 157.
        p3_int: The int parameter number 3 of tool 157.
    """
    return "ok"


@server.tool
def tool_158(p0_int: int) -> str:
    """Do the work of tool number 158 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 158.
    """
    return "ok"


@server.tool
def tool_159(p0_int: int, p1_int: int = 10, p2_str: str = "x") -> str:
    """Do the work of tool number 159 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 159.
        p1_int: The int parameter number 1 of tool 159.
        p2_str: The str parameter number 2 of tool 159.
    """
    return "ok"


@server.tool
def tool_160(p0_bool: bool, p1_float: Optional[float] = None, p2_int: int = 10, p3_bool: bool = False) -> dict:
    """Do the work of tool number 160 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 160.
        p1_float: The float parameter number 1 of tool 160.
        p2_int: The int parameter number 2 of tool 160.
        p3_bool: The bool parameter number 3 of tool 160.
    """
    return {"tool": 160}


@server.tool
def tool_161(p0_float: float) -> str:
    """Do the work of tool number 161 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 161.
    """
    return "ok"


@server.tool
def tool_162(p0_int: int, p1_float: float = 0.5, p2_int: int = 10, p3_float: float = 0.5) -> str:
    """Do the work of tool number 162 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 162.
        p1_float: The float parameter number 1 of tool 162.
        p2_int: The int parameter number 2 of tool 162.
        p3_float: The float parameter number 3 of tool 162.
    """
    return "ok"


@server.tool
def tool_163(p0_bool: bool, p1_str: str = "x") -> dict:
    """Do the work of tool number 163 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 163.
        p1_str: The str parameter number 1 of tool 163.
    """
    return {"tool": 163}


@server.tool
def tool_164(p0_str: str) -> str:
    """Do the work of tool number 164 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 164.
    """
    return "ok"


@server.tool
def tool_165(p0_bool: bool, p1_bool: bool = False, p2_int: int = 10) -> dict:
    """Do the work of tool number 165 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 165.
        p1_bool: The bool parameter number 1 of tool 165.
        p2_int: The int parameter number 2 of tool 165.
    """
    return {"tool": 165}


@server.tool
def tool_166(p0_float: float, p1_bool: bool = False, p2_int: int = 10, p3_float: float = 0.5) -> dict:
    """Do the work of tool number 166 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 166.
        p1_bool: The bool parameter number 1 of tool 166.
        p2_int: The int parameter number 2 of tool 166.
        p3_float: The float parameter number 3 of tool 166.
    """
    return {"tool": 166}


@server.tool
def tool_167(p0_float: float) -> dict:
    """Do the work of tool number 167 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 167.
    """
    return {"tool": 167}


@server.tool
def tool_168(p0_int: int) -> dict:
    """Do the work of tool number 168 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 168.
    """
    return {"tool": 168}


@server.tool
def tool_169(p0_bool: bool, p1_float: Optional[float] = None, p2_float: float = 0.5) -> dict:
    """Do the work of tool number 169 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 169.
        p1_float: The float parameter number 1 of tool 169.
        p2_float: The float parameter number 2 of tool 169.
    """
    return {"tool": 169}


@server.tool
def tool_170(p0_float: float, p1_str: str = "x", p2_str: str = "x", p3_str: str = "x") -> dict:
    """Do the work of tool number 170 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 170.
        p1_str: The str parameter number 1 of tool 170.
        p2_str: The str parameter number 2 of tool 170.
        p3_str: The str parameter number 3 of tool 170.
    """
    return {"tool": 170}


@server.tool
def tool_171(p0_float: float) -> dict:
    """Do the work of tool number 171 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 171.
    """
    return {"tool": 171}


@server.tool
def tool_172(p0_str: str, p1_str: str = "x") -> str:
    """Do the work of tool number 172 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 172.
        p1_str: The str parameter number 1 of tool 172.
    """
    return "ok"


@server.tool
def tool_173(p0_float: float) -> dict:
    """Do the work of tool number 173 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 173.
    """
    return {"tool": 173}


@server.tool
def tool_174(p0_int: int) -> dict:
    """Do the work of tool number 174 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 174.
    """
    return {"tool": 174}


@server.tool
def tool_175(p0_float: float, p1_int: int = 10, p2_bool: Optional[bool] = None, p3_int: int = 10) -> str:
    """Do the work of tool number 175 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 175.
        p1_int: The int parameter number 1 of tool 175.
        p2_bool: The bool parameter number 2 of tool 175.
        p3_int: The int parameter number 3 of tool 175.
    """
    return "ok"


@server.tool
def tool_176(p0_str: str, p1_bool: bool = False, p2_int: int = 10) -> str:
    """Do the work of tool number 176 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 176.
        p1_bool: The bool parameter number 1 of tool 176.
        p2_int: The int parameter number 2 of tool 176.
    """
    return "ok"


@server.tool
def tool_177(p0_float: float, p1_float: float = 0.5, p2_str: str = "x", p3_float: float = 0.5) -> str:
    """Do the work of tool number 177 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 177.
        p1_float: The float parameter number 1 of tool 177.
        p2_str: The str parameter number 2 of tool 177.
        p3_float: The float parameter number 3 of tool 177.
    """
    return "ok"


@server.tool
def tool_178(p0_int: int) -> dict:
    """Do the work of tool number 178 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 178.
    """
    return {"tool": 178}


@server.tool
def tool_179(p0_bool: bool, p1_str: Optional[str] = None, p2_int: int = 10) -> dict:
    """Do the work of tool number 179 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 179.
        p1_str: The str parameter number 1 of tool 179.
        p2_int: The int parameter number 2 of tool 179.
    """
    return {"tool": 179}


@server.tool
def tool_180(p0_float: float, p1_str: str = "x", p2_bool: Optional[bool] = None) -> str:
    """Do the work of tool number 180 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 180.
        p1_str: The str parameter number 1 of tool 180.
        p2_bool: The bool parameter number 2 of tool 180.
    """
    return "ok"


@server.tool
def tool_181(p0_bool: bool, p1_int: int = 10) -> dict:
    """Do the work of tool number 181 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 181.
        p1_int: The int parameter number 1 of tool 181.
    """
    return {"tool": 181}


@server.tool
def tool_182(p0_bool: bool) -> str:
    """Do the work of tool number 182 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 182.
    """
    return "ok"


@server.tool
def tool_183(p0_float: float, p1_bool: bool = False, p2_str: str = "x", p3_bool: bool = False) -> dict:
    """Do the work of tool number 183 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 183.
        p1_bool: The bool parameter number 1 of tool 183.
        p2_str: The str parameter number 2 of tool 183.
        p3_bool: The bool parameter number 3 of tool 183.
    """
    return {"tool": 183}


@server.tool
def tool_184(p0_int: int, p1_str: str = "x", p2_int: int = 10) -> dict:
    """Do the work of tool number 184 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 184.
        p1_str: The str parameter number 1 of tool 184.
        p2_int: The int parameter number 2 of tool 184.
    """
    return {"tool": 184}


@server.tool
def tool_185(p0_str: str, p1_str: str = "x") -> dict:
    """Do the work of tool number 185 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 185.
        p1_str: The str parameter number 1 of tool 185.
    """
    return {"tool": 185}


@server.tool
def tool_186(p0_float: float, p1_float: Optional[float] = None) -> str:
    """Do the work of tool number 186 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 186.
        p1_float: The float parameter number 1 of tool 186.
    """
    return "ok"


@server.tool
def tool_187(p0_bool: bool, p1_str: str = "x", p2_str: str = "x", p3_int: Optional[int] = None) -> dict:
    """Do the work of tool number 187 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 187.
        p1_str: The str parameter number 1 of tool 187.
        p2_str: The str parameter number 2 of tool 187.
        p3_int: The int parameter number 3 of tool 187.
    """
    return {"tool": 187}


@server.tool
def tool_188(p0_int: int, p1_float: float = 0.5, p2_bool: bool = False, p3_str: Optional[str] = None) -> dict:
    """Do the work of tool number 188 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 188.
        p1_float: The float parameter number 1 of tool 188.
        p2_bool: The bool parameter number 2 of tool 188.
        p3_str: The str parameter number 3 of tool 188.
    """
    return {"tool": 188}


@server.tool
def tool_189(p0_int: int) -> str:
    """Do the work of tool number 189 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 189.
    """
    return "ok"


@server.tool
def tool_190(p0_str: str, p1_int: int = 10) -> str:
    """Do the work of tool number 190 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 190.
        p1_int: The int parameter number 1 of tool 190.
    """
    return "ok"


@server.tool
def tool_191(p0_int: int, p1_int: Optional[int] = None, p2_float: float = 0.5, p3_bool: bool = False) -> str:
    """Do the work of tool number 191 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 191.
        p1_int: The int parameter number 1 of tool 191.
        p2_float: The float parameter number 2 of tool 191.
        p3_bool: The bool parameter number 3 of tool 191.
    """
    return "ok"


@server.tool
def tool_192(p0_bool: bool, p1_float: float = 0.5, p2_str: str = "x") -> str:
    """Do the work of tool number 192 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 192.
        p1_float: The float parameter number 1 of tool 192.
        p2_str: The str parameter number 2 of tool 192.
    """
    return "ok"


@server.tool
def tool_193(p0_str: str, p1_int: int = 10, p2_float: Optional[float] = None) -> str:
    """Do the work of tool number 193 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 193.
        p1_int: The int parameter number 1 of tool 193.
        p2_float: The float parameter number 2 of tool 193.
    """
    return "ok"


@server.tool
def tool_194(p0_int: int) -> str:
    """Do the work of tool number 194 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 194.
    """
    return "ok"


@server.tool
def tool_195(p0_str: str, p1_str: str = "x", p2_float: float = 0.5, p3_int: int = 10) -> dict:
    """Do the work of tool number 195 on the given inputs.

    Args:
        p0_str: The str parameter number 0 of tool 195.
        p1_str: The str parameter number 1 of tool 195.
        p2_float: The float parameter number 2 of tool 195.
        p3_int: The int parameter number 3 of tool 195.
    """
    return {"tool": 195}


@server.tool
def tool_196(p0_float: float, p1_int: int = 10, p2_str: Optional[str] = None, p3_int: int = 10) -> dict:
    """Do the work of tool number 196 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 196.
        p1_int: The int parameter number 1 of tool 196.
        p2_str: The str parameter number 2 of tool 196.
        p3_int: The int parameter number 3 of tool 196.
    """
    return {"tool": 196}


@server.tool
def tool_197(p0_int: int) -> dict:
    """Do the work of tool number 197 on the given inputs.

    Args:
        p0_int: The int parameter number 0 of tool 197.
    """
    return {"tool": 197}


@server.tool
def tool_198(p0_float: float, p1_int: Optional[int] = None, p2_float: float = 0.5, p3_int: int = 10) -> str:
    """Do the work of tool number 198 on the given inputs.

    Args:
        p0_float: The float parameter number 0 of tool 198.
        p1_int: The int parameter number 1 of tool 198.
        p2_float: The float parameter number 2 of tool 198.
        p3_int: The int parameter number 3 of tool 198.
    """
    return "ok"


@server.tool
def tool_199(p0_bool: bool) -> str:
    """Do the work of tool number 199 on the given inputs.

    Args:
        p0_bool: The bool parameter number 0 of tool 199.
    """
    return "ok"


@server.tool
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


if __name__ == "__main__":
    sys.exit(server.run())
