"""The tagger: a BERT encoder with a token-classification head.

With ``layer_mix`` the head reads a learned weighted sum of all encoder layers
(Rei et al. 2020, after Kondratyuk & Straka's scalar mix) instead of only the
last one; during training each layer weight is dropped with probability 0.1.
The forward pass returns softmax probabilities, so the exported ONNX graph
gives the engine a confidence for every tag.
"""

from __future__ import annotations

import torch
from torch import nn
from transformers import AutoModel


class ScalarMix(nn.Module):
    def __init__(self, n_layers: int, layer_dropout: float = 0.1):
        super().__init__()
        self.weights = nn.Parameter(torch.zeros(n_layers))
        self.gamma = nn.Parameter(torch.ones(1))
        self.layer_dropout = layer_dropout

    def forward(self, layers: tuple[torch.Tensor, ...]) -> torch.Tensor:
        w = self.weights
        if self.training and self.layer_dropout > 0:
            drop = torch.rand_like(w) < self.layer_dropout
            w = w.masked_fill(drop, float("-inf"))
            if torch.isinf(w).all():
                w = self.weights
        alpha = torch.softmax(w, dim=0)
        stacked = torch.stack(layers, dim=0)
        return self.gamma * (alpha[:, None, None, None] * stacked).sum(0)


class CaseTagger(nn.Module):
    def __init__(self, encoder_dir: str, n_tags: int = 4, layer_mix: bool = False, dropout: float = 0.1,
                 layers: int | None = None, intermediate: int | None = None, heads: int | None = None):
        super().__init__()
        # eager attention exports to the pattern ONNX Runtime's transformer optimizer fuses
        self.encoder = AutoModel.from_pretrained(encoder_dir, attn_implementation="eager")
        if layers:  # keep only the lower layers: half the layers, half the run-time cost
            self.encoder.encoder.layer = self.encoder.encoder.layer[:layers]
            self.encoder.config.num_hidden_layers = layers
        if intermediate and intermediate != self.encoder.config.intermediate_size:
            # a narrower feed-forward block (a distilled student): the shapes only; the
            # weights come from a checkpoint or from ``prune_ffn``
            for layer in self.encoder.encoder.layer:
                prune_ffn(layer, intermediate)
            self.encoder.config.intermediate_size = intermediate
        if heads and heads != self.encoder.config.num_attention_heads:
            # fewer attention heads per layer (a distilled student): the shapes only, as above
            for layer in self.encoder.encoder.layer:
                prune_heads(layer, list(range(heads)))
        hidden = self.encoder.config.hidden_size
        n_layers = self.encoder.config.num_hidden_layers + 1  # embeddings + each layer
        self.mix = ScalarMix(n_layers) if layer_mix else None
        self.dropout = nn.Dropout(dropout)
        self.head = nn.Linear(hidden, n_tags)

    @classmethod
    def shaped_as(cls, encoder_dir: str, config: dict) -> "CaseTagger":
        """A tagger of the shape a checkpoint's config records (layers, feed-forward width, heads),
        ready for ``load_state_dict``."""
        return cls(encoder_dir, layer_mix=bool(config.get("layer_mix")), layers=config.get("layers"),
                   intermediate=config.get("intermediate"), heads=config.get("heads"))

    @property
    def heads(self) -> int:
        """Attention heads per layer (fewer than the encoder's own in a head-pruned student)."""
        return self.encoder.encoder.layer[0].attention.self.num_attention_heads

    def logits(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        out = self.encoder(input_ids=input_ids, attention_mask=attention_mask,
                           output_hidden_states=self.mix is not None)
        h = self.mix(out.hidden_states) if self.mix is not None else out.last_hidden_state
        return self.head(self.dropout(h))

    def forward(self, input_ids: torch.Tensor, attention_mask: torch.Tensor) -> torch.Tensor:
        """Tag probabilities, shape (batch, tokens, tags): what the ONNX graph outputs."""
        return torch.softmax(self.logits(input_ids, attention_mask), dim=-1)


def prune_ffn(layer: nn.Module, width: int) -> None:
    """Keep the ``width`` feed-forward units of a BERT layer that matter most, in place.

    A unit's weight is the norm of its input row times the norm of its output column:
    a unit that reads little or writes little changes the residual stream little
    (magnitude pruning, as in Michel et al. 2019 / Voita et al. 2019 for heads)."""
    inter, out = layer.intermediate.dense, layer.output.dense
    score = inter.weight.norm(dim=1) * out.weight.norm(dim=0)
    keep = torch.sort(torch.topk(score, width).indices).values
    new_inter = nn.Linear(inter.in_features, width)
    new_out = nn.Linear(width, out.out_features)
    with torch.no_grad():
        new_inter.weight.copy_(inter.weight[keep])
        new_inter.bias.copy_(inter.bias[keep])
        new_out.weight.copy_(out.weight[:, keep])
        new_out.bias.copy_(out.bias)
    layer.intermediate.dense, layer.output.dense = new_inter, new_out


def prune_heads(layer: nn.Module, keep: list[int]) -> None:
    """Keep only the attention heads ``keep`` of a BERT layer, in place.

    Each head owns ``head_size`` consecutive outputs of the query, key and value
    projections and the same inputs of the attention's output projection; the
    attention reshapes by head size, so the layer runs with fewer heads as it is.
    The scaling stays 1/sqrt(head size): a kept head computes what it did before."""
    att = layer.attention.self
    size = att.attention_head_size
    rows = torch.cat([torch.arange(h * size, (h + 1) * size) for h in sorted(keep)])
    with torch.no_grad():
        for name in ("query", "key", "value"):
            old = getattr(att, name)
            new = nn.Linear(old.in_features, len(rows))
            new.weight.copy_(old.weight[rows])
            new.bias.copy_(old.bias[rows])
            setattr(att, name, new)
        old = layer.attention.output.dense
        new = nn.Linear(len(rows), old.out_features)
        new.weight.copy_(old.weight[:, rows])
        new.bias.copy_(old.bias)
        layer.attention.output.dense = new
    att.num_attention_heads = len(keep)
    att.all_head_size = len(rows)


def student_state(teacher_state: dict, keep_layers: list[int]) -> dict:
    """A teacher's state dict with only the encoder layers ``keep_layers``, renumbered 0, 1, ...

    Taking the top layer along (e.g. layers 0 and 2 of 3) keeps the representation
    the head was trained on; a plain truncation keeps the lower layers."""
    out = {}
    for k, v in teacher_state.items():
        if k.startswith("encoder.encoder.layer."):
            idx, _, rest = k[len("encoder.encoder.layer."):].partition(".")
            if int(idx) not in keep_layers:
                continue
            k = f"encoder.encoder.layer.{keep_layers.index(int(idx))}.{rest}"
        out[k] = v
    return out
