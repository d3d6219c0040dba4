"""Reference sentence embeddings for the semantic-search tests, computed
independently of the Rust code: a plain numpy forward pass of the BERT
encoder over the model's safetensors weights, mean pooling over the
attention mask, L2 normalisation (what sentence-transformers does for
all-MiniLM-L6-v2). Token ids come from Hugging Face's tokenizers.

Usage: reference.py MODEL_DIR SENTENCES_FILE > reference.json
One sentence per line of SENTENCES_FILE, except that a line holding only
`\\n`-escaped text is unescaped (so multi-line text fits on one line)."""

import json
import math
import sys

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer


def layer_norm(x, w, b, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * w + b


def gelu(x):
    # The exact (erf) GELU of BERT's "gelu".
    erf = np.vectorize(math.erf)
    return 0.5 * x * (1.0 + erf(x / math.sqrt(2.0)))


def encode(weights, config, ids):
    w = lambda name: weights[name].astype(np.float64)
    eps = config["layer_norm_eps"]
    n = len(ids)
    x = w("embeddings.word_embeddings.weight")[ids]
    x = x + w("embeddings.position_embeddings.weight")[:n]
    x = x + w("embeddings.token_type_embeddings.weight")[0]
    x = layer_norm(x, w("embeddings.LayerNorm.weight"), w("embeddings.LayerNorm.bias"), eps)
    heads = config["num_attention_heads"]
    size = config["hidden_size"] // heads
    for i in range(config["num_hidden_layers"]):
        p = f"encoder.layer.{i}."
        lin = lambda name, v: v @ w(p + name + ".weight").T + w(p + name + ".bias")
        q = lin("attention.self.query", x).reshape(n, heads, size).transpose(1, 0, 2)
        k = lin("attention.self.key", x).reshape(n, heads, size).transpose(1, 0, 2)
        v = lin("attention.self.value", x).reshape(n, heads, size).transpose(1, 0, 2)
        scores = q @ k.transpose(0, 2, 1) / math.sqrt(size)
        scores = scores - scores.max(-1, keepdims=True)
        probs = np.exp(scores)
        probs = probs / probs.sum(-1, keepdims=True)
        ctx = (probs @ v).transpose(1, 0, 2).reshape(n, heads * size)
        x = layer_norm(
            x + lin("attention.output.dense", ctx),
            w(p + "attention.output.LayerNorm.weight"),
            w(p + "attention.output.LayerNorm.bias"),
            eps,
        )
        inner = gelu(lin("intermediate.dense", x))
        x = layer_norm(
            x + lin("output.dense", inner),
            w(p + "output.LayerNorm.weight"),
            w(p + "output.LayerNorm.bias"),
            eps,
        )
    pooled = x.mean(0)  # one sentence, no padding: every token counts
    return pooled / np.linalg.norm(pooled)


def main():
    model, sentences = sys.argv[1], sys.argv[2]
    with open(f"{model}/config.json") as f:
        config = json.load(f)
    weights = load_file(f"{model}/model.safetensors")
    tokenizer = Tokenizer.from_file(f"{model}/tokenizer.json")
    # sentence-transformers' max_seq_length for this model.
    tokenizer.enable_truncation(256)
    tokenizer.no_padding()
    out = []
    with open(sentences, encoding="utf-8") as f:
        lines = [line.rstrip("\n") for line in f if line.strip()]
    texts = [line.replace("\\n", "\n") for line in lines]
    for text in texts:
        ids = tokenizer.encode(text).ids
        vector = encode(weights, config, ids)
        out.append({"text": text, "ids": ids, "embedding": [float(v) for v in vector]})
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
