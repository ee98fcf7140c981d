"""A JSON Schema validator for the keywords tests/grading/schemas use (draft-07
subset, standard library only): type, enum, const, properties, required,
additionalProperties, patternProperties, minProperties, items, minItems,
minimum, maximum, minLength, pattern, anyOf, $ref to #/definitions/NAME.
validate(instance, schema) returns the list of errors (empty: valid)."""
import re

TYPES = {"object": dict, "array": list, "string": str, "boolean": bool, "null": type(None)}


def _type_ok(value, t):
    if t == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if t == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[t])


def validate(value, schema, root=None, path="$"):
    root = root or schema
    errors = []
    if "$ref" in schema:
        name = schema["$ref"].split("/")[-1]
        return validate(value, root["definitions"][name], root, path)
    if "type" in schema:
        types = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_type_ok(value, t) for t in types):
            return ["%s: %r is not of type %s" % (path, value, schema["type"])]
    if "enum" in schema and value not in schema["enum"]:
        errors.append("%s: %r is not one of %s" % (path, value, schema["enum"]))
    if "const" in schema and value != schema["const"]:
        errors.append("%s: %r is not %r" % (path, value, schema["const"]))
    if "anyOf" in schema:
        tries = [validate(value, s, root, path) for s in schema["anyOf"]]
        if all(tries):
            errors.append("%s: matches none of anyOf: %s" % (path, "; ".join(t[0] for t in tries)))
    if isinstance(value, dict):
        props = schema.get("properties", {})
        for k in schema.get("required", []):
            if k not in value:
                errors.append("%s: %s is required" % (path, k))
        if len(value) < schema.get("minProperties", 0):
            errors.append("%s: fewer than %d properties" % (path, schema["minProperties"]))
        for k, v in value.items():
            sub = "%s.%s" % (path, k)
            if k in props:
                errors += validate(v, props[k], root, sub)
                continue
            matched = [s for p, s in schema.get("patternProperties", {}).items() if re.search(p, k)]
            for s in matched:
                errors += validate(v, s, root, sub)
            if matched:
                continue
            extra = schema.get("additionalProperties", True)
            if extra is False:
                errors.append("%s: %s is not allowed" % (path, k))
            elif isinstance(extra, dict):
                errors += validate(v, extra, root, sub)
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            errors.append("%s: fewer than %d items" % (path, schema["minItems"]))
        if "items" in schema:
            for i, v in enumerate(value):
                errors += validate(v, schema["items"], root, "%s[%d]" % (path, i))
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            errors.append("%s: shorter than %d" % (path, schema["minLength"]))
        if "pattern" in schema and not re.search(schema["pattern"], value):
            errors.append("%s: %r does not match %s" % (path, value, schema["pattern"]))
    if _type_ok(value, "number"):
        if "minimum" in schema and value < schema["minimum"]:
            errors.append("%s: %r < %r" % (path, value, schema["minimum"]))
        if "maximum" in schema and value > schema["maximum"]:
            errors.append("%s: %r > %r" % (path, value, schema["maximum"]))
    return errors
