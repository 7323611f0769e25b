"""Tools every domain offers: `calculate` and `think`."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from typing import Annotated

from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from taue.envs.runtime.database import Store

_ALLOWED_CHARACTERS = set("0123456789+-*/(). ")
_BINARY: dict[type[ast.operator], Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Pow: operator.pow,
}
_UNARY: dict[type[ast.unaryop], Callable[[float], float]] = {ast.UAdd: operator.pos, ast.USub: operator.neg}
_MAX_EXPONENT = 100


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return node.value
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](_evaluate(node.operand))
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and abs(right) > _MAX_EXPONENT:
            raise ValueError("exponent too large")
        return _BINARY[type(node.op)](left, right)
    raise ValueError("unsupported expression")


async def calculate(
    db: Store,
    expression: Annotated[
        str,
        Field(
            description="An arithmetic expression with numbers, + - * / ( ) and spaces, e.g. '2 * (3 + 4)'."
        ),
    ],
) -> str:
    """Calculate the result of an arithmetic expression. Returns the value rounded to 2 decimals."""
    if not set(expression) <= _ALLOWED_CHARACTERS:
        raise ToolError("invalid characters in expression")
    try:
        value = _evaluate(ast.parse(expression, mode="eval"))
        return str(round(float(value), 2))
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError) as exc:
        raise ToolError(str(exc) or type(exc).__name__) from None


async def think(db: Store, thought: Annotated[str, Field(description="The thought to note down.")]) -> str:
    """Think about something without changing anything: use it to reason through a complex request or
    to remember something. Returns nothing."""
    return ""
