//! BERT's encoder (post-LayerNorm, erf GELU), forward only, f32, for sequences of token ids;
//! then mean pooling and L2 normalisation as sentence-transformers' Pooling and Normalize do.
//!
//! The sequences of a batch are packed one after another without padding: every linear layer
//! runs once over all their tokens (one sgemm), attention runs per sequence and head. Padding
//! would only add tokens that the attention mask and the mean pooling then ignore, so leaving
//! it out gives the same vectors.

use serde_json::Value;

use crate::crew::{Columns, Crew};
use crate::gemm::Packed;
use crate::math;
use crate::safetensors::SafeTensors;

/// The dimensions in `config.json`.
#[derive(Debug, Clone)]
pub(crate) struct Config {
    pub hidden: usize,
    pub heads: usize,
    pub layers: usize,
    pub intermediate: usize,
    pub vocab: usize,
    pub positions: usize,
    pub type_vocab: usize,
    pub eps: f32,
}

impl Config {
    pub(crate) fn from_json(json: &Value) -> Result<Config, String> {
        let size = |key: &str| -> Result<usize, String> {
            json.get(key)
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("no positive integer `{key}`"))
        };
        let model_type = json.get("model_type").and_then(Value::as_str);
        if model_type != Some("bert") {
            return Err(format!(
                "`model_type` is {model_type:?}, this crate runs \"bert\""
            ));
        }
        let act = json.get("hidden_act").and_then(Value::as_str);
        if act != Some("gelu") {
            return Err(format!(
                "`hidden_act` is {act:?}, this crate runs \"gelu\" (the erf form)"
            ));
        }
        if let Some(kind) = json.get("position_embedding_type").and_then(Value::as_str)
            && kind != "absolute"
        {
            return Err(format!(
                "`position_embedding_type` is {kind:?}, this crate runs \"absolute\""
            ));
        }
        let eps = json
            .get("layer_norm_eps")
            .and_then(Value::as_f64)
            .filter(|e| e.is_finite() && *e > 0.0)
            .ok_or("no positive `layer_norm_eps`")? as f32;
        let config = Config {
            hidden: size("hidden_size")?,
            heads: size("num_attention_heads")?,
            layers: size("num_hidden_layers")?,
            intermediate: size("intermediate_size")?,
            vocab: size("vocab_size")?,
            positions: size("max_position_embeddings")?,
            type_vocab: size("type_vocab_size")?,
            eps,
        };
        if !config.hidden.is_multiple_of(config.heads) {
            return Err("`hidden_size` is not a multiple of `num_attention_heads`".into());
        }
        Ok(config)
    }
}

/// The weights of the linear layers are stored transposed, [inputs, outputs] (nn.Linear stores
/// [outputs, inputs]), and packed in panels for the kernel ([`Packed`]) once, at load.
struct Layer {
    /// Query, key and value side by side: [hidden, 3 hidden].
    qkv_w: Packed,
    qkv_b: Vec<f32>,
    attn_out_w: Packed,
    attn_out_b: Vec<f32>,
    attn_ln_g: Vec<f32>,
    attn_ln_b: Vec<f32>,
    inter_w: Packed,
    inter_b: Vec<f32>,
    out_w: Packed,
    out_b: Vec<f32>,
    out_ln_g: Vec<f32>,
    out_ln_b: Vec<f32>,
}

pub(crate) struct Bert {
    config: Config,
    word: Vec<f32>,
    position: Vec<f32>,
    /// Row 0 of the token type embeddings: every token of one sentence is type 0.
    token_type0: Vec<f32>,
    emb_ln_g: Vec<f32>,
    emb_ln_b: Vec<f32>,
    layers: Vec<Layer>,
}

impl Bert {
    pub(crate) fn from_safetensors(config: Config, st: &SafeTensors) -> Result<Bert, String> {
        let h = config.hidden;
        let i = config.intermediate;
        let mut token_type = st.f32(
            "embeddings.token_type_embeddings.weight",
            &[config.type_vocab, h],
        )?;
        token_type.truncate(h);
        let mut layers = Vec::with_capacity(config.layers);
        for l in 0..config.layers {
            let p = format!("encoder.layer.{l}.");
            let t = |name: &str, shape: &[usize]| st.f32(&format!("{p}{name}"), shape);
            let mut qkv_w = t("attention.self.query.weight", &[h, h])?;
            qkv_w.extend(t("attention.self.key.weight", &[h, h])?);
            qkv_w.extend(t("attention.self.value.weight", &[h, h])?);
            let qkv_w = Packed::new(&transpose(&qkv_w, 3 * h, h), h, 3 * h);
            let mut qkv_b = t("attention.self.query.bias", &[h])?;
            qkv_b.extend(t("attention.self.key.bias", &[h])?);
            qkv_b.extend(t("attention.self.value.bias", &[h])?);
            layers.push(Layer {
                qkv_w,
                qkv_b,
                attn_out_w: Packed::new(
                    &transpose(&t("attention.output.dense.weight", &[h, h])?, h, h),
                    h,
                    h,
                ),
                attn_out_b: t("attention.output.dense.bias", &[h])?,
                attn_ln_g: t("attention.output.LayerNorm.weight", &[h])?,
                attn_ln_b: t("attention.output.LayerNorm.bias", &[h])?,
                inter_w: Packed::new(
                    &transpose(&t("intermediate.dense.weight", &[i, h])?, i, h),
                    h,
                    i,
                ),
                inter_b: t("intermediate.dense.bias", &[i])?,
                out_w: Packed::new(&transpose(&t("output.dense.weight", &[h, i])?, h, i), i, h),
                out_b: t("output.dense.bias", &[h])?,
                out_ln_g: t("output.LayerNorm.weight", &[h])?,
                out_ln_b: t("output.LayerNorm.bias", &[h])?,
            });
        }
        Ok(Bert {
            word: st.f32("embeddings.word_embeddings.weight", &[config.vocab, h])?,
            position: st.f32(
                "embeddings.position_embeddings.weight",
                &[config.positions, h],
            )?,
            token_type0: token_type,
            emb_ln_g: st.f32("embeddings.LayerNorm.weight", &[h])?,
            emb_ln_b: st.f32("embeddings.LayerNorm.bias", &[h])?,
            layers,
            config,
        })
    }

    pub(crate) fn config(&self) -> &Config {
        &self.config
    }

    /// The sentence embedding of each sequence: the last hidden states averaged over its tokens,
    /// L2-normalised. Every id must be below the vocabulary size and every sequence at most
    /// `positions` long and not empty (the caller's tokenizer guarantees it). The linear layers
    /// are shared out among the crew (see [`Packed::linear`]).
    pub(crate) fn embed(&self, sequences: &[Vec<u32>], crew: &Crew<'_>) -> Vec<Vec<f32>> {
        let h = self.config.hidden;
        let total: usize = sequences.iter().map(Vec::len).sum();
        let mut x = vec![0.0f32; total * h];
        let mut row = 0;
        for seq in sequences {
            for (pos, &id) in seq.iter().enumerate() {
                let out = &mut x[row * h..(row + 1) * h];
                let word = &self.word[id as usize * h..(id as usize + 1) * h];
                let position = &self.position[pos * h..(pos + 1) * h];
                for (((o, w), p), t) in out
                    .iter_mut()
                    .zip(word)
                    .zip(position)
                    .zip(&self.token_type0)
                {
                    *o = w + p + t;
                }
                row += 1;
            }
        }
        layer_norm(&mut x, &self.emb_ln_g, &self.emb_ln_b, self.config.eps);

        let lengths: Vec<usize> = sequences.iter().map(Vec::len).collect();
        let mut scratch = Scratch::default();
        for layer in &self.layers {
            self.layer(layer, &mut x, &lengths, &mut scratch, crew);
        }

        let mut out = Vec::with_capacity(sequences.len());
        let mut start = 0;
        for &len in &lengths {
            let mut pooled = vec![0.0f32; h];
            for t in start..start + len {
                for (p, v) in pooled.iter_mut().zip(&x[t * h..(t + 1) * h]) {
                    *p += v;
                }
            }
            let n = len.max(1) as f32;
            pooled.iter_mut().for_each(|p| *p /= n);
            let norm = pooled.iter().map(|v| v * v).sum::<f32>().sqrt().max(1e-12);
            pooled.iter_mut().for_each(|p| *p /= norm);
            out.push(pooled);
            start += len;
        }
        out
    }

    fn layer(
        &self,
        layer: &Layer,
        x: &mut [f32],
        lengths: &[usize],
        s: &mut Scratch,
        crew: &Crew<'_>,
    ) {
        let c = &self.config;
        let h = c.hidden;
        let tokens = x.len() / h;
        let head = h / c.heads;
        let scale = 1.0 / (head as f32).sqrt();

        // Q, K, V for all tokens: [tokens, 3h].
        layer
            .qkv_w
            .linear(x, tokens, &layer.qkv_b, &mut s.qkv, crew, |_| {});

        // Attention per sequence and head, into `ctx` [tokens, h], the heads shared out among
        // the crew (each head writes its own columns of `ctx`).
        s.ctx.clear();
        s.ctx.resize(tokens * h, 0.0);
        let ctx_all = Columns(s.ctx.as_mut_ptr());
        let qkv = &s.qkv;
        crew.share_out(c.heads, 1, &|heads| {
            let mut scores = Vec::new();
            let mut start = 0;
            for &len in lengths {
                scores.clear();
                scores.resize(len * len, 0.0);
                for hd in heads.clone() {
                    let q = &qkv[start * 3 * h + hd * head..];
                    let k = &qkv[start * 3 * h + h + hd * head..];
                    let v = &qkv[start * 3 * h + 2 * h + hd * head..];
                    // The slices reach to the end of the buffer; the strides stay inside them.
                    // scores = scale · Q_h K_hᵀ: [len, head] × [head, len].
                    // SAFETY: the last element read is row len-1, column head-1 of each
                    // matrix: (len-1)·3h + head-1 past the slice start, inside `qkv` since the
                    // slices start at most at 2h + (heads-1)·head and the sequence's rows are
                    // there; `scores` holds len·len.
                    unsafe {
                        matrixmultiply::sgemm(
                            len,
                            head,
                            len,
                            scale,
                            q.as_ptr(),
                            (3 * h) as isize,
                            1,
                            k.as_ptr(),
                            1,
                            (3 * h) as isize,
                            0.0,
                            scores.as_mut_ptr(),
                            len as isize,
                            1,
                        );
                    }
                    for r in scores.chunks_exact_mut(len) {
                        softmax(r);
                    }
                    // ctx_h = P V_h: [len, len] × [len, head], rows h apart in `ctx`.
                    // SAFETY: as above for `v`; `ctx` is written at rows 0..len (stride h),
                    // columns 0..head from the sequence's first row and the head's first
                    // column, inside `s.ctx` (tokens × h), in columns no other member writes
                    // (heads are shared out), while `run` borrows it.
                    unsafe {
                        matrixmultiply::sgemm(
                            len,
                            len,
                            head,
                            1.0,
                            scores.as_ptr(),
                            len as isize,
                            1,
                            v.as_ptr(),
                            (3 * h) as isize,
                            1,
                            0.0,
                            ctx_all.at(start * h + hd * head),
                            h as isize,
                            1,
                        );
                    }
                }
                start += len;
            }
        });

        // Output projection, residual, LayerNorm.
        layer
            .attn_out_w
            .linear(&s.ctx, tokens, &layer.attn_out_b, &mut s.proj, crew, |_| {});
        add_and_norm(x, &s.proj, &layer.attn_ln_g, &layer.attn_ln_b, c.eps, crew);

        // Feed-forward: GELU(x W1ᵀ + b1) W2ᵀ + b2, residual, LayerNorm.
        layer
            .inter_w
            .linear(x, tokens, &layer.inter_b, &mut s.inter, crew, |run| {
                run.iter_mut().for_each(|v| *v = gelu(*v))
            });
        layer
            .out_w
            .linear(&s.inter, tokens, &layer.out_b, &mut s.proj, crew, |_| {});
        add_and_norm(x, &s.proj, &layer.out_ln_g, &layer.out_ln_b, c.eps, crew);
    }
}

/// Rows a crew member takes at a time in [`add_and_norm`].
const ROWS_A_TURN: usize = 4;

/// `x` += `residual`, then LayerNorm over each row of `x`, the rows shared out among the crew.
fn add_and_norm(x: &mut [f32], residual: &[f32], g: &[f32], b: &[f32], eps: f32, crew: &Crew<'_>) {
    let n = g.len();
    let rows = x.len() / n;
    assert_eq!(residual.len(), x.len());
    let all = Columns(x.as_mut_ptr());
    crew.share_out(rows, ROWS_A_TURN, &|mine| {
        // SAFETY: rows `mine` of `x` (rows × n values, borrowed until `run` returns, after
        // every member), which no other member touches: each range goes to one member.
        let part =
            unsafe { std::slice::from_raw_parts_mut(all.at(mine.start * n), mine.len() * n) };
        for (v, r) in part.iter_mut().zip(&residual[mine.start * n..mine.end * n]) {
            *v += r;
        }
        layer_norm(part, g, b, eps);
    });
}

#[derive(Default)]
struct Scratch {
    qkv: Vec<f32>,
    ctx: Vec<f32>,
    proj: Vec<f32>,
    inter: Vec<f32>,
}

/// `m` [rows, cols] transposed: [cols, rows].
fn transpose(m: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut t = vec![0.0; m.len()];
    for r in 0..rows {
        for c in 0..cols {
            t[c * rows + r] = m[r * cols + c];
        }
    }
    t
}

/// LayerNorm over each row of `x` (rows of `g.len()` values), the mean and variance in f64.
fn layer_norm(x: &mut [f32], g: &[f32], b: &[f32], eps: f32) {
    let n = g.len();
    for row in x.chunks_exact_mut(n) {
        let mean = row.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
        let var = row
            .iter()
            .map(|&v| (f64::from(v) - mean).powi(2))
            .sum::<f64>()
            / n as f64;
        let inv = 1.0 / (var + f64::from(eps)).sqrt();
        for ((v, g), b) in row.iter_mut().zip(g).zip(b) {
            *v = ((f64::from(*v) - mean) * inv) as f32 * g + b;
        }
    }
}

fn softmax(row: &mut [f32]) {
    let max = row.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut sum = 0.0f32;
    for v in row.iter_mut() {
        *v = math::exp(*v - max);
        sum += *v;
    }
    let inv = 1.0 / sum;
    row.iter_mut().for_each(|v| *v *= inv);
}

/// GELU, erf form: x · Φ(x).
#[inline(always)]
fn gelu(x: f32) -> f32 {
    0.5 * x * (1.0 + math::erf(x * std::f32::consts::FRAC_1_SQRT_2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gelu_matches_known_values() {
        // x · Φ(x) from the normal distribution's table.
        for (x, want) in [
            (0.0f32, 0.0f32),
            (1.0, 0.841_344_7),
            (-1.0, -0.158_655_3),
            (2.0, 1.954_5),
            (-3.0, -0.004_05),
        ] {
            assert!((gelu(x) - want).abs() < 1e-4, "gelu({x}) = {}", gelu(x));
        }
    }

    #[test]
    fn layer_norm_centres_and_scales() {
        let mut x = vec![1.0, 2.0, 3.0, 4.0];
        layer_norm(&mut x, &[1.0; 4], &[0.0; 4], 1e-12);
        let mean: f32 = x.iter().sum::<f32>() / 4.0;
        let var: f32 = x.iter().map(|v| (v - mean).powi(2)).sum::<f32>() / 4.0;
        assert!(mean.abs() < 1e-6 && (var - 1.0).abs() < 1e-5);
    }

    #[test]
    fn transpose_swaps_rows_and_columns() {
        // W [2 outputs, 3 inputs] -> Wᵀ [3, 2].
        let w = [1.0, 0.0, -1.0, 0.5, 0.5, 0.5];
        assert_eq!(transpose(&w, 2, 3), [1.0, 0.5, 0.0, 0.5, -1.0, 0.5]);
    }
}
