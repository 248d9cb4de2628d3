"""What a client reads from an answer: field -> JSON type, checked field by field."""

JSON_TYPES = {"string": str, "number": (int, float), "boolean": bool}


def carries(body: dict, fields: dict[str, str]) -> None:
    for name, kind in fields.items():
        assert name in body and isinstance(body[name], JSON_TYPES[kind]) and not (
            kind == "number" and isinstance(body[name], bool)), (name, body)
