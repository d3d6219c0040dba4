//! The encoder's small steps for one text, each as candle computes it:
//! layer norm, the attention of every head, GELU (the exact one, with
//! erf), the pooled mean and its norm. Tokens are rows of `hidden` values.

use candle_core::cpu::erf::erf_f32;
use candle_transformers::models::bert::HiddenAct;

/// `x = (x − mean) / √(var + eps) · weight + bias`, token by token.
#[derive(Debug)]
pub(super) struct LayerNorm {
    pub weight: Vec<f32>,
    pub bias: Vec<f32>,
    pub eps: f32,
}

impl LayerNorm {
    #[allow(clippy::cast_precision_loss)]
    pub fn apply(&self, x: &mut [f32]) {
        let width = self.weight.len();
        for row in x.chunks_exact_mut(width) {
            let (sum, squares) = row
                .iter()
                .fold((0f32, 0f32), |(s, q), v| (s + v, q + v * v));
            let mean = sum / width as f32;
            let var = squares / width as f32 - mean * mean;
            let scale = 1.0 / (var + self.eps).sqrt();
            for ((v, w), b) in row.iter_mut().zip(&self.weight).zip(&self.bias) {
                *v = (*v - mean) * scale * w + b;
            }
        }
    }
}

/// `x += y`, element by element (`y` as long as `x`, or one row of it).
pub(super) fn add_in_place(x: &mut [f32], y: &[f32]) {
    for (a, b) in x.iter_mut().zip(y) {
        *a += b;
    }
}

/// The intermediate layer's activation, as candle's BERT applies it:
/// GELU with erf (`hidden_act = "gelu"`), its tanh approximation, or `ReLU`.
pub(super) fn activate(act: HiddenAct, x: &mut [f32]) {
    const SQRT_TWO_OVER_PI: f32 = 0.797_884_6;
    for v in x {
        *v = match act {
            HiddenAct::Gelu => (erf_f32(*v * std::f32::consts::FRAC_1_SQRT_2) + 1.0) * 0.5 * *v,
            HiddenAct::GeluApproximate => {
                0.5 * *v * (1.0 + (SQRT_TWO_OVER_PI * *v * (1.0 + 0.044_715 * *v * *v)).tanh())
            }
            HiddenAct::Relu => v.max(0.0),
        };
    }
}

/// Self-attention over `tokens` rows of `[query | key | value]` (each
/// `hidden` wide, `heads` heads of `hidden / heads`): every head's
/// softmax of `q·k / √d`, times the values; rows of `hidden`.
#[allow(clippy::cast_precision_loss)]
pub(super) fn attend(qkv: &[f32], tokens: usize, hidden: usize, heads: usize) -> Vec<f32> {
    let d = hidden / heads;
    let scale = 1.0 / (d as f32).sqrt();
    let part = |t: usize, which: usize, h: usize| {
        let at = t * 3 * hidden + which * hidden + h * d;
        &qkv[at..at + d]
    };
    let mut context = vec![0f32; tokens * hidden];
    let mut weights = vec![0f32; tokens];
    for h in 0..heads {
        for i in 0..tokens {
            let q = part(i, 0, h);
            for (j, w) in weights.iter_mut().enumerate() {
                let dot: f32 = q.iter().zip(part(j, 1, h)).map(|(a, b)| a * b).sum();
                *w = dot * scale;
            }
            let most = weights.iter().copied().fold(f32::NEG_INFINITY, f32::max);
            let mut total = 0f32;
            for w in &mut weights {
                *w = (*w - most).exp();
                total += *w;
            }
            let out = &mut context[i * hidden + h * d..i * hidden + (h + 1) * d];
            for (j, w) in weights.iter().enumerate() {
                let p = w / total;
                for (o, v) in out.iter_mut().zip(part(j, 2, h)) {
                    *o += p * v;
                }
            }
        }
    }
    context
}

/// The mean of the rows, divided by its L2 norm (at least 1e-12), as
/// sentence-transformers pools.
#[allow(clippy::cast_precision_loss)]
pub(super) fn mean_unit(x: &[f32], hidden: usize) -> Vec<f32> {
    let tokens = x.len() / hidden.max(1);
    let mut mean = vec![0f32; hidden];
    for row in x.chunks_exact(hidden) {
        add_in_place(&mut mean, row);
    }
    for v in &mut mean {
        *v /= tokens.max(1) as f32;
    }
    let norm = mean.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-12);
    for v in &mut mean {
        *v /= norm;
    }
    mean
}
