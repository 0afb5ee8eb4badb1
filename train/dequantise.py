"""The shipped entailment model's weights as a PyTorch model, to train a second stage from.

The package ships the model as int8 ONNX only (`src/citeproof/verifier/support/entailment/`);
its fp32 weights live only where it was trained. This script rebuilds them from the int8 file:
every quantised weight is ``(q - zero_point) * scale``, laid into all-MiniLM-L6-v2's
architecture by the module path each ONNX node carries (``/bert/encoder/layer.0/attention/
self/query/MatMul``). It then checks the rebuilt model against the ONNX one on a few pairs and
stops if their probabilities differ by more than `TOLERANCE`.

Run: ``.venv/bin/python train/dequantise.py out/dequantised`` (then ``train_support_model.py
--init out/dequantised``; ``make train-support-model-stage2`` does both).
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import numpy_helper
from train_support_model import MAX_TOKENS, SHIP, base_model_dir
from transformers import AutoModelForSequenceClassification, AutoTokenizer

TOLERANCE = 0.05
"""The largest difference in any probability allowed between the rebuilt fp32 model and the
int8 model it came from (int8 activations move probabilities by a few hundredths)."""
_EMBEDDINGS = ("word_embeddings", "token_type_embeddings", "position_embeddings")
_TRANSPOSED = ("bert.pooler.dense.weight", "classifier.weight")
_NODE_PATH = re.compile(r"/(.*)/MatMul")
_CHECK_PAIRS = (
    ("The Tenant shall not sublet the Premises.", "The Tenant may sublet the Premises."),
    ("Revenue rose 12% to £412m in the quarter.", "Revenue grew by 12%."),
    ("The meeting was held in Paris on Monday.", "The meeting took place in France."),
    ("Invoices are payable within 30 days.", "Invoices must be paid within a month."),
    ("The cat sat on the mat.", "Interest rates rose sharply."),
)


def weights(model_path: Path) -> dict[str, torch.Tensor]:
    """The fp32 state dict of the int8 ONNX model at ``model_path``."""
    graph = onnx.load(str(model_path)).graph
    arrays = {i.name: numpy_helper.to_array(i) for i in graph.initializer}

    def dequantised(prefix: str) -> np.ndarray:
        q = arrays[prefix + "_quantized"].astype(np.float32)
        zero = arrays[prefix + "_zero_point"].astype(np.float32)
        return (q - zero) * arrays[prefix + "_scale"]

    state = {
        name: torch.tensor(array)
        for name, array in arrays.items()
        if array.dtype == np.float32
        and not name.endswith("_scale")
        and not name.startswith("onnx::")
    }
    for name in _EMBEDDINGS:
        key = f"bert.embeddings.{name}.weight"
        state[key] = torch.tensor(dequantised(key))
    for key in _TRANSPOSED:
        state[key] = torch.tensor(dequantised(key + "_Transposed").T.copy())
    for node in graph.node:
        weight = node.input[1] if node.op_type == "MatMulInteger" else ""
        if not weight.startswith("onnx::MatMul") or not weight.endswith("_quantized"):
            continue
        found = _NODE_PATH.match(node.name)
        if found is None:
            raise SystemExit(f"no module path in the ONNX node name {node.name!r}")
        path = found.group(1).replace("/", ".")
        state[path + ".weight"] = torch.tensor(dequantised(weight[: -len("_quantized")]).T.copy())
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out", type=Path, help="folder for the rebuilt model and tokenizer")
    parser.add_argument("--model", type=Path, default=SHIP / "model.onnx")
    args = parser.parse_args()
    model = AutoModelForSequenceClassification.from_pretrained(base_model_dir(), num_labels=3)
    missing, unexpected = model.load_state_dict(weights(args.model), strict=False)
    if missing or unexpected:
        raise SystemExit(f"weights do not fit: missing {missing}, unexpected {unexpected}")
    model.eval()
    tokenizer = AutoTokenizer.from_pretrained(base_model_dir())
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    from citeproof.verifier.support._nli import NliModel

    shipped = NliModel(args.model.read_bytes(), (args.model.parent / "tokenizer.json").read_text())
    for passage, claim in _CHECK_PAIRS:
        inputs = tokenizer(
            passage, claim, return_tensors="pt", truncation=True, max_length=MAX_TOKENS
        )
        with torch.no_grad():
            ours = torch.softmax(model(**inputs).logits, -1)[0].tolist()
        (theirs,) = shipped.score([(passage, claim)])
        gap = max(
            abs(a - b)
            for a, b in zip(ours, (theirs.entails, theirs.contradicts, theirs.neither), strict=True)
        )
        if gap > TOLERANCE:
            raise SystemExit(f"the rebuilt model differs by {gap:.3f} on {claim!r}")
    model.save_pretrained(args.out)
    tokenizer.save_pretrained(args.out)
    print(f"rebuilt {args.model} into {args.out}")


if __name__ == "__main__":
    main()
