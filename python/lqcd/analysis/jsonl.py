"""JSON-lines files as lqcd writes them (one object per line). Standard library only, so that the
NumPy-free scripts (scripts/flow_scales.py) can load it as a top-level module."""
import json


def read_jsonl(path):
    """The records of a JSON-lines file; a line that is not JSON is an error naming the file and line."""
    records = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except ValueError as err:
                raise ValueError(f"{path}:{n}: not a JSON object: {err}") from None
    return records
