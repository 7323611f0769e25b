"""Reading τ-bench-family Python task files without running them.

A task file is parsed with `ast.parse` and its values are built with `ast.literal_eval`; nothing in it
is imported, executed or evaluated. Accepted, and nothing else:

- import statements and string expressions (a docstring) at the top level: skipped, never run;
- exactly one top-level assignment of a list (`TASKS = [...]`, any name, optionally annotated) whose
  elements are `Task(...)` calls with keyword arguments only;
- inside a task, literal values (strings, numbers, booleans, None, lists, tuples, dicts with string
  keys, negative numbers), `actions=[Action(name=..., kwargs={...}), ...]`, and the data-only string
  pattern `'<sep>'.join((<string literals>))`.

Anything else (a function definition, a call, a name, attribute access, a lambda, arithmetic, an
f-string, ...) is rejected with the file, the line and what was found. Sizes are bounded: the file,
each string, each integer, the nesting depth and the number of nodes per task.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any, TypeGuard

from pydantic import ValidationError

from taue.envs.task_sets.published import MAX_TASK_FILE_BYTES, MAX_TASKS, PublishedTask, check_size
from taue.envs.task_sets.storage import TaskSetError

MAX_STRING_CHARS = 200_000
MAX_INT_DIGITS = 30
MAX_DEPTH = 32
MAX_NODES_PER_TASK = 200_000
TASK_KEYWORDS = frozenset(PublishedTask.model_fields)
ACTION_KEYWORDS = frozenset({"name", "kwargs"})
ALLOWED = (
    "only literal values, Task(...) and Action(...) calls with keyword arguments, "
    "and the ''.join((...)) string pattern are accepted"
)


def describe(node: ast.AST) -> str:
    """What a node is, in words, for an error message."""
    if isinstance(node, ast.Call):
        return f"a call to {_snippet(node.func)}"
    if isinstance(node, ast.Attribute):
        return f"attribute access {_snippet(node)}"
    if isinstance(node, ast.Lambda):
        return "a lambda"
    if isinstance(node, ast.Name):
        return f"the name {node.id!r}"
    if isinstance(node, ast.BinOp | ast.BoolOp | ast.Compare):
        return f"an expression {_snippet(node)}"
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return f"a definition of {node.name!r}"
    if isinstance(node, ast.JoinedStr):
        return "an f-string"
    return f"a {type(node).__name__} node"


def _snippet(node: ast.AST) -> str:
    text = ast.unparse(node)  # renders the tree back to text; runs nothing
    return repr(text if len(text) <= 60 else text[:57] + "...")


class _Reader:
    """Turns the accepted nodes of one file into plain values, enforcing the limits."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.nodes = 0

    def fail(self, node: ast.AST, what: str) -> TaskSetError:
        return TaskSetError(f"{self.path}, line {getattr(node, 'lineno', '?')}: {what}")

    def reject(self, node: ast.AST) -> TaskSetError:
        return self.fail(node, f"found {describe(node)}; {ALLOWED}")

    def task(self, node: ast.expr) -> dict[str, Any]:
        self.nodes = 0
        fields = self.call(node, "Task", TASK_KEYWORDS)
        return {
            name: self.actions(value) if name == "actions" else self.value(value, 1)
            for name, value in fields.items()
        }

    def call(self, node: ast.expr, callee: str, keywords: frozenset[str]) -> dict[str, ast.expr]:
        """The keyword arguments of a `callee(...)` call node."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == callee):
            raise self.fail(node, f"expected a {callee}(...) call, found {describe(node)}")
        if node.args:
            raise self.fail(node, f"{callee}(...) takes keyword arguments only, found a positional argument")
        fields: dict[str, ast.expr] = {}
        for keyword in node.keywords:
            if keyword.arg is None:
                raise self.fail(node, f"{callee}(...) may not unpack a mapping (**)")
            if keyword.arg not in keywords:
                raise self.fail(
                    keyword.value,
                    f"{callee}(...) has no field {keyword.arg!r}; known: {', '.join(sorted(keywords))}",
                )
            fields[keyword.arg] = keyword.value
        return fields

    def actions(self, node: ast.expr) -> list[dict[str, Any]]:
        if not isinstance(node, ast.List | ast.Tuple):
            raise self.fail(node, f"actions must be a list of Action(...) calls, found {describe(node)}")
        actions = []
        for element in node.elts:
            fields = self.call(element, "Action", ACTION_KEYWORDS)
            actions.append({name: self.value(value, 2) for name, value in fields.items()})
        return actions

    def value(self, node: ast.expr, depth: int) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES_PER_TASK:
            raise self.fail(node, f"a task with more than {MAX_NODES_PER_TASK} values (size limit)")
        if depth > MAX_DEPTH:
            raise self.fail(node, f"values nested more than {MAX_DEPTH} levels deep (size limit)")
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            if isinstance(node.operand, ast.Constant) and type(node.operand.value) in (int, float):
                self.constant(node.operand)
                return ast.literal_eval(node)
            raise self.reject(node.operand)
        if isinstance(node, ast.List | ast.Tuple):
            return [self.value(element, depth + 1) for element in node.elts]
        if isinstance(node, ast.Dict):
            return self.mapping(node, depth)
        joined = _join_parts(node)
        if joined is not None:
            return self.join(node, *joined)
        raise self.reject(node)

    def constant(self, node: ast.Constant) -> Any:
        value = node.value
        if isinstance(value, str) and len(value) > MAX_STRING_CHARS:
            raise self.fail(node, f"a string of {len(value)} characters (limit {MAX_STRING_CHARS})")
        if type(value) is int and len(str(abs(value))) > MAX_INT_DIGITS:
            raise self.fail(node, f"an integer with more than {MAX_INT_DIGITS} digits (size limit)")
        if value is not None and type(value) not in (str, int, float, bool):
            raise self.fail(node, f"found a {type(value).__name__} literal; {ALLOWED}")
        return ast.literal_eval(node)

    def mapping(self, node: ast.Dict, depth: int) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None:
                raise self.fail(node, "a dict may not unpack another mapping (**)")
            if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
                raise self.fail(key, f"dict keys must be string literals, found {describe(key)}")
            result[self.constant(key)] = self.value(value, depth + 1)
        return result

    def join(self, node: ast.expr, separator: ast.Constant, parts: list[ast.Constant]) -> str:
        text = self.constant(separator).join(self.constant(part) for part in parts)
        if len(text) > MAX_STRING_CHARS:
            raise self.fail(node, f"a string of {len(text)} characters (limit {MAX_STRING_CHARS})")
        return text


def _join_parts(node: ast.expr) -> tuple[ast.Constant, list[ast.Constant]] | None:
    """The separator and parts of `'<sep>'.join((<string literals>))`, or None for anything else."""
    if not isinstance(node, ast.Call) or len(node.args) != 1 or node.keywords:
        return None
    func, sequence = node.func, node.args[0]
    if not (isinstance(func, ast.Attribute) and func.attr == "join" and _is_text(func.value)):
        return None
    if not isinstance(sequence, ast.Tuple | ast.List) or not all(_is_text(e) for e in sequence.elts):
        return None
    return func.value, [e for e in sequence.elts if isinstance(e, ast.Constant)]


def _is_text(node: ast.expr) -> TypeGuard[ast.Constant]:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _parse(path: Path) -> ast.Module:
    check_size(path, MAX_TASK_FILE_BYTES)
    try:
        return ast.parse(path.read_bytes(), filename=str(path))
    except SyntaxError as exc:
        raise TaskSetError(f"{path}, line {exc.lineno}: not valid Python: {exc.msg}") from None
    except (ValueError, RecursionError, MemoryError) as exc:
        raise TaskSetError(f"{path}: cannot be parsed ({type(exc).__name__}: {exc})") from None


def _task_list(path: Path, module: ast.Module) -> ast.List:
    """The one top-level `NAME = [...]`; imports and docstrings are skipped, anything else refused."""
    lists: list[ast.List] = []
    reader = _Reader(path)
    for statement in module.body:
        if isinstance(statement, ast.Import | ast.ImportFrom):
            continue
        if _is_docstring(statement):
            continue
        value = _assigned_list(statement)
        if value is None:
            inner = getattr(statement, "value", None)
            found = describe(inner if isinstance(inner, ast.expr) else statement)
            raise reader.fail(
                statement,
                f"found {found} at the top level; a task file holds one list assignment of Task(...) calls",
            )
        lists.append(value)
    if len(lists) != 1:
        raise TaskSetError(f"{path}: expected exactly one top-level list assignment, found {len(lists)}")
    return lists[0]


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _assigned_list(statement: ast.stmt) -> ast.List | None:
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
        target, value = statement.targets[0], statement.value
    elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
        target, value = statement.target, statement.value
    else:
        return None
    if isinstance(target, ast.Name) and isinstance(value, ast.List):
        return value
    return None


def read_python_tasks(path: Path) -> list[PublishedTask]:
    """The published tasks of a Python task file, read safely (see the module docstring)."""
    elements = _task_list(path, _parse(path)).elts
    if len(elements) > MAX_TASKS:
        raise TaskSetError(f"{path}: {len(elements)} tasks is more than the limit of {MAX_TASKS}")
    reader = _Reader(path)
    tasks = []
    for index, element in enumerate(elements):
        raw = reader.task(element)
        try:
            tasks.append(PublishedTask.model_validate(raw))
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or '(task)'}: {err['msg']}" for err in exc.errors()
            )
            raise reader.fail(element, f"task {index}: {problems}") from None
    return tasks
