"""Independent oracles for the agreement tests: the definition of Dao-Tran, Beck, Eiter 2015, §5 written naively, and a
tiny JSON Schema validator for the subset of draft 2020-12 used by ``report.schema.json``.

Deliberately written without looking at the implementation's structure: loops over every time point.
"""

from __future__ import annotations

from typing import Any


def naive_verdicts(pull, push, period, start=0, end=None):
    """``[(i, lo, hi, agrees, missing, extra)]`` for every complete ``[i·U,(i+1)·U]`` in ``[start, end]``."""
    if end is None:
        end = max(t for t in pull if t % period == 0)
    out = []
    i = 0
    while (i + 1) * period <= end:
        lo, hi = i * period, (i + 1) * period
        if lo >= start:
            union = set()
            t = lo + 1
            while t <= hi:  # every t in (lo, hi]
                for solution in push.get(t, ()):
                    union.add(solution)
                t += 1
            pulled = set(pull[hi])
            out.append((i, lo, hi, union == pulled, pulled - union, union - pulled))
        i += 1
    return out


# --- a tiny JSON Schema validator: type, const, enum, required, properties, additionalProperties,
# --- items, minItems, maxItems, minimum, maximum, oneOf, $ref to "#/$defs/..."

_TYPES = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}
_KNOWN = {
    "$schema", "$id", "title", "description", "$defs", "type", "const", "enum", "required", "properties",
    "additionalProperties", "items", "minimum", "maximum", "oneOf", "$ref", "minItems", "maxItems",
}


def schema_errors(instance: Any, schema: dict, root: dict | None = None, path: str = "$") -> list[str]:
    """Every violation of ``schema`` by ``instance``, as ``"path: message"`` strings (empty = valid)."""
    root = schema if root is None else root
    unknown = set(schema) - _KNOWN
    if unknown:
        raise ValueError(f"validator does not support keywords {sorted(unknown)} at {path}")
    if "$ref" in schema:
        ref = schema["$ref"]
        assert ref.startswith("#/$defs/"), ref
        return schema_errors(instance, root["$defs"][ref[len("#/$defs/"):]], root, path)
    errors: list[str] = []
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_TYPES[t](instance) for t in types):
            return [f"{path}: {instance!r} is not of type {types}"]
    if "const" in schema and instance != schema["const"]:
        errors.append(f"{path}: {instance!r} != const {schema['const']!r}")
    if "enum" in schema and instance not in schema["enum"]:
        errors.append(f"{path}: {instance!r} not in {schema['enum']}")
    if "oneOf" in schema:
        ok = [s for s in schema["oneOf"] if not schema_errors(instance, s, root, path)]
        if len(ok) != 1:
            errors.append(f"{path}: matches {len(ok)} of the oneOf alternatives, not exactly one")
    if _TYPES["number"](instance):
        if "minimum" in schema and instance < schema["minimum"]:
            errors.append(f"{path}: {instance} < minimum {schema['minimum']}")
        if "maximum" in schema and instance > schema["maximum"]:
            errors.append(f"{path}: {instance} > maximum {schema['maximum']}")
    if isinstance(instance, dict):
        for key in schema.get("required", []):
            if key not in instance:
                errors.append(f"{path}: missing required {key!r}")
        props = schema.get("properties", {})
        extra_schema = schema.get("additionalProperties", True)
        for key, value in instance.items():
            if key in props:
                errors.extend(schema_errors(value, props[key], root, f"{path}.{key}"))
            elif extra_schema is False:
                errors.append(f"{path}: unexpected property {key!r}")
            elif isinstance(extra_schema, dict):
                errors.extend(schema_errors(value, extra_schema, root, f"{path}.{key}"))
    if isinstance(instance, list):
        if len(instance) < schema.get("minItems", 0):
            errors.append(f"{path}: fewer than {schema['minItems']} items")
        if "maxItems" in schema and len(instance) > schema["maxItems"]:
            errors.append(f"{path}: more than {schema['maxItems']} items")
    if isinstance(instance, list) and "items" in schema:
        for k, item in enumerate(instance):
            errors.extend(schema_errors(item, schema["items"], root, f"{path}[{k}]"))
    return errors
