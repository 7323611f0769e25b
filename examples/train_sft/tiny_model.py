"""A tiny randomly initialised chat model, to try the training script on a CPU in a minute.

Nothing is downloaded: the tokenizer is a byte-level BPE learned from the dataset itself, the model a
two-layer Qwen2 built from a config. It learns nothing useful; it shows the pipeline runs. Its chat
template leaves the tool schemas out to keep sequences short on a CPU.

    python examples/train_sft/tiny_model.py --dataset datasets/sft --out models/tiny
    python examples/train_sft/train.py sft --model models/tiny --dataset datasets/sft --max-steps 10
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

# Unlike a real model's template this one leaves the tool schemas out (they would double the length
# of every sequence); tool calls and results are rendered.
CHAT_TEMPLATE = """\
{%- for message in messages -%}
{%- if message.role == 'assistant' -%}
<|assistant|>{% generation %}{{ message.content or '' }}
{%- for call in message.tool_calls or [] %}<|call|>{{ call.function | tojson }}{% endfor -%}
<|end|>{% endgeneration %}
{% else -%}
<|{{ message.role }}|>{{ message.content }}<|end|>
{% endif -%}
{%- endfor -%}
{%- if add_generation_prompt %}<|assistant|>{% endif -%}
"""
SPECIAL = ["<|pad|>", "<|end|>", "<|system|>", "<|user|>", "<|assistant|>", "<|tool|>", "<|call|>"]


def dataset_texts(dataset: Path) -> list[str]:
    """The texts the chat template renders from an exported dataset (SFT or preference): message
    contents and tool calls, for learning the vocabulary."""
    texts = []
    for line in (dataset / "train.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for column in ("messages", "prompt", "chosen", "rejected"):
            for message in row.get(column, []):
                texts.append(message.get("content") or "")
                texts.extend(json.dumps(call["function"]) for call in message.get("tool_calls") or [])
    return texts


def build(dataset: Path, out: Path, vocab_size: int = 4096, hidden: int = 32, layers: int = 2) -> Path:
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import AutoModelForCausalLM, PreTrainedTokenizerFast, Qwen2Config

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=SPECIAL,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    bpe.train_from_iterator(dataset_texts(dataset), trainer)
    tokenizer = PreTrainedTokenizerFast(
        tokenizer_object=bpe, pad_token="<|pad|>", eos_token="<|end|>", model_max_length=1 << 20
    )
    tokenizer.chat_template = CHAT_TEMPLATE
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=hidden,
        intermediate_size=hidden * 2,
        num_hidden_layers=layers,
        num_attention_heads=2,
        num_key_value_heads=1,
        max_position_embeddings=1 << 16,
        pad_token_id=tokenizer.pad_token_id,
        eos_token_id=tokenizer.eos_token_id,
        tie_word_embeddings=True,
    )
    model = AutoModelForCausalLM.from_config(config)
    out.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(out)
    tokenizer.save_pretrained(out)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, required=True, help="An exported dataset folder.")
    parser.add_argument("--out", type=Path, required=True, help="Folder for the model and tokenizer.")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    from transformers import set_seed

    set_seed(args.seed)
    print(f"tiny model -> {build(args.dataset, args.out)}")


if __name__ == "__main__":
    main()
