"""Fine-tune a chat model on a τ-Emotion-Bench dataset with TRL: `sft` on an SFT export, `dpo` on a
preference export (`taue tracer export --format sft|preference`).

The defaults are the Tracer paper's SFT settings: learning rate 5e-5, cosine schedule, 3 epochs,
effective batch 32, bf16 where the GPU has it, maximum length 32,768 tokens, paged AdamW 8-bit where
bitsandbytes and a GPU are present (AdamW otherwise).

    python examples/train_sft/train.py sft --model Qwen/Qwen3-1.7B --dataset datasets/sft --output-dir out/sft
    python examples/train_sft/train.py dpo --model out/sft --dataset datasets/pref --output-dir out/dpo

The loss of every logged step is written to OUTPUT_DIR/log_history.json.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
from pathlib import Path

TRAIN_COLUMNS = {
    "sft": ("messages", "tools"),
    "dpo": ("prompt", "chosen", "rejected", "tools"),
}


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("method", choices=("sft", "dpo"), help="sft (SFTTrainer) or dpo (DPOTrainer).")
    parser.add_argument("--model", required=True, help="Hugging Face model id or local folder.")
    parser.add_argument("--dataset", type=Path, required=True, help="An exported dataset folder.")
    parser.add_argument("--output-dir", type=Path, default=Path("out"), help="Checkpoints and logs.")
    parser.add_argument("--learning-rate", type=float, default=5e-5)
    parser.add_argument("--lr-scheduler", default="cosine")
    parser.add_argument("--epochs", type=float, default=3.0)
    parser.add_argument("--effective-batch-size", type=int, default=32)
    parser.add_argument("--per-device-batch-size", type=int, default=1)
    parser.add_argument("--max-length", type=int, default=32_768, help="Longer samples are truncated.")
    parser.add_argument("--max-steps", type=int, default=-1, help="Stop after N steps (-1: epochs).")
    parser.add_argument("--precision", choices=("auto", "bf16", "fp32"), default="auto")
    parser.add_argument(
        "--optim", default="auto", help="auto: paged_adamw_8bit with bitsandbytes on a GPU, else adamw_torch."
    )
    parser.add_argument("--beta", type=float, default=0.1, help="DPO's beta.")
    parser.add_argument(
        "--assistant-only-loss",
        action="store_true",
        help="SFT loss on the agent's tokens only (needs a chat template with {% generation %}).",
    )
    parser.add_argument("--gradient-checkpointing", action="store_true")
    parser.add_argument("--logging-steps", type=int, default=10)
    parser.add_argument("--save-strategy", default="epoch", help="no, steps or epoch.")
    parser.add_argument("--seed", type=int, default=0)
    return parser.parse_args(argv)


def gradient_accumulation(effective: int, per_device: int) -> int:
    """Steps to accumulate so that per-device batch × devices × steps reaches the effective batch."""
    world = int(os.environ.get("WORLD_SIZE", "1"))
    return max(1, math.ceil(effective / (per_device * world)))


def precision_flags(choice: str) -> dict[str, bool]:
    import torch

    if choice == "auto":
        return {"bf16": torch.cuda.is_available() and torch.cuda.is_bf16_supported()}
    return {"bf16": choice == "bf16"}


def optimizer(choice: str) -> str:
    if choice != "auto":
        return choice
    import torch

    if torch.cuda.is_available() and importlib.util.find_spec("bitsandbytes") is not None:
        return "paged_adamw_8bit"
    return "adamw_torch"


def load_train_split(dataset: Path, method: str):
    """The dataset's train split, with only the columns the trainer reads."""
    from datasets import load_dataset

    # The JSON loader, not load_dataset(folder): a folder with a card is cached by its card, so a
    # re-exported dataset would load stale.
    data = load_dataset("json", data_files=str(dataset / "train.jsonl"), split="train")
    missing = [c for c in TRAIN_COLUMNS[method] if c not in data.column_names]
    if missing:
        kind = "an SFT" if method == "sft" else "a preference"
        raise SystemExit(f"error: {dataset} is not {kind} export (no {', '.join(missing)} column)")
    return data.select_columns(list(TRAIN_COLUMNS[method]))


def common_settings(args: argparse.Namespace) -> dict:
    return {
        "output_dir": str(args.output_dir),
        "learning_rate": args.learning_rate,
        "lr_scheduler_type": args.lr_scheduler,
        "num_train_epochs": args.epochs,
        "max_steps": args.max_steps,
        "per_device_train_batch_size": args.per_device_batch_size,
        "gradient_accumulation_steps": gradient_accumulation(
            args.effective_batch_size, args.per_device_batch_size
        ),
        "max_length": args.max_length,
        "optim": optimizer(args.optim),
        "gradient_checkpointing": args.gradient_checkpointing,
        "logging_steps": args.logging_steps,
        "save_strategy": args.save_strategy,
        "report_to": "none",
        "seed": args.seed,
        **precision_flags(args.precision),
    }


def build_trainer(args: argparse.Namespace):
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(args.model)
    if tokenizer.pad_token is None:
        tokenizer.pad_token = tokenizer.eos_token
    model = AutoModelForCausalLM.from_pretrained(args.model)
    data = load_train_split(args.dataset, args.method)
    if args.method == "sft":
        from trl import SFTConfig, SFTTrainer

        config = SFTConfig(**common_settings(args), assistant_only_loss=args.assistant_only_loss)
        return SFTTrainer(model=model, args=config, train_dataset=data, processing_class=tokenizer)
    from trl import DPOConfig, DPOTrainer

    config = DPOConfig(**common_settings(args), beta=args.beta)
    return DPOTrainer(model=model, args=config, train_dataset=data, processing_class=tokenizer)


def main(argv: list[str] | None = None) -> None:
    args = parse_args(argv)
    from transformers import set_seed

    set_seed(args.seed)
    trainer = build_trainer(args)
    trainer.train()
    trainer.save_model(str(args.output_dir))
    history = [entry for entry in trainer.state.log_history if "loss" in entry]
    (args.output_dir / "log_history.json").write_text(json.dumps(history, indent=2) + "\n")
    losses = [entry["loss"] for entry in history]
    if losses:
        print(f"{args.method}: {len(losses)} logged steps, loss {losses[0]:.4f} -> {losses[-1]:.4f}")


if __name__ == "__main__":
    main()
