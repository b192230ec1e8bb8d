// Multi-head softmax self-attention over packed sequences (BERTScore's padding-free forward on the CPU).
//
// The query/key/value products of a batch are one row-major (n_tokens, 3 * heads * head_size) float32 matrix:
// row t holds token t's queries, then keys, then values, head after head. Sequences are consecutive runs of rows.
// For every sequence and head this computes softmax(scale * Q K^T) V with no mask and no padding and writes it to
// the token's columns of the (n_tokens, heads * head_size) context matrix: the same math as
// torch.nn.functional.scaled_dot_product_attention, with float32 sums (the results agree to float rounding).
//
// Two paths, chosen once at run time: AVX2+FMA intrinsics (keys transposed into a small buffer so that eight keys'
// scores are one vector, four queries at a time; a vectorised Cephes exp with ~1 ulp error) and a portable scalar
// one (std::exp). Everything is plain C++ run without the GIL; a Workspace holds the scratch memory of one caller.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define REFSCORE_ATTENTION_AVX2 1
#endif

namespace refscore_attention {

struct Workspace {
  std::vector<float> keys;    // (head_size, padded length): one head's keys, transposed
  std::vector<float> values;  // (length, head_size): one head's values, contiguous
  std::vector<float> scores;  // (4, padded length): the scores of up to four queries
};

struct Layout {
  const float* qkv;   // (n_tokens, 3 * width)
  float* context;     // (n_tokens, width)
  int64_t width;      // heads * head_size
  int64_t heads;
  int64_t head_size;
  float scale;
};

inline int64_t padded_length(int64_t length) { return (length + 15) / 16 * 16; }

// ---------------------------------------------------------------------------------------------- portable path

inline void head_scalar(const Layout& layout, int64_t first, int64_t length, int64_t head, Workspace& ws) {
  const int64_t stride = 3 * layout.width, d = layout.head_size;
  const float* queries = layout.qkv + first * stride + head * d;
  const float* keys = queries + layout.width;
  const float* values = keys + layout.width;
  float* scores = ws.scores.data();
  for (int64_t i = 0; i < length; ++i) {
    const float* q = queries + i * stride;
    float best = -std::numeric_limits<float>::infinity();
    for (int64_t j = 0; j < length; ++j) {
      const float* k = keys + j * stride;
      float dot = 0.0f;
      for (int64_t c = 0; c < d; ++c) dot += q[c] * k[c];
      scores[j] = dot * layout.scale;
      best = std::max(best, scores[j]);
    }
    float total = 0.0f;
    for (int64_t j = 0; j < length; ++j) {
      scores[j] = std::exp(scores[j] - best);
      total += scores[j];
    }
    float* out = layout.context + (first + i) * layout.width + head * d;
    std::fill(out, out + d, 0.0f);
    for (int64_t j = 0; j < length; ++j) {
      const float* v = values + j * stride;
      for (int64_t c = 0; c < d; ++c) out[c] += scores[j] * v[c];
    }
    const float inverse = 1.0f / total;
    for (int64_t c = 0; c < d; ++c) out[c] *= inverse;
  }
}

// ------------------------------------------------------------------------------------------------ AVX2 path

#ifdef REFSCORE_ATTENTION_AVX2
#define REFSCORE_AVX2 __attribute__((target("avx2,fma")))

// exp of eight floats (Cephes expf: range reduction by ln 2 in two parts, degree-5 polynomial); inputs below
// -87.3 give ~0 rather than denormals, which a softmax sum of at least 1 cannot tell apart; NaN gives NaN.
REFSCORE_AVX2 inline __m256 exp8(__m256 x) {
  const __m256 high = _mm256_set1_ps(88.3762626647949f), low = _mm256_set1_ps(-87.3365447504f);
  x = _mm256_max_ps(low, _mm256_min_ps(high, x));  // operands in this order: a NaN stays NaN
  __m256 n = _mm256_floor_ps(_mm256_fmadd_ps(x, _mm256_set1_ps(1.44269504088896341f), _mm256_set1_ps(0.5f)));
  x = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);
  x = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), x);
  __m256 y = _mm256_set1_ps(1.9875691500E-4f);
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.3981999507E-3f));
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(8.3334519073E-3f));
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(4.1665795894E-2f));
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(1.6666665459E-1f));
  y = _mm256_fmadd_ps(y, x, _mm256_set1_ps(5.0000001201E-1f));
  y = _mm256_fmadd_ps(y, _mm256_mul_ps(x, x), _mm256_add_ps(x, _mm256_set1_ps(1.0f)));
  __m256i power = _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(y, _mm256_castsi256_ps(power));
}

REFSCORE_AVX2 inline float horizontal_max(__m256 v) {
  __m128 m = _mm_max_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  m = _mm_max_ps(m, _mm_movehl_ps(m, m));
  m = _mm_max_ss(m, _mm_shuffle_ps(m, m, 1));
  return _mm_cvtss_f32(m);
}

REFSCORE_AVX2 inline float horizontal_sum(__m256 v) {
  __m128 s = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  s = _mm_add_ps(s, _mm_movehl_ps(s, s));
  s = _mm_add_ss(s, _mm_shuffle_ps(s, s, 1));
  return _mm_cvtss_f32(s);
}

// exp(scores[j] - shift) in place for the row's `padded` scores; returns their sum (padding scores are -inf and
// give at most 1.2e-38 each, which cannot change a sum of at least 1).
REFSCORE_AVX2 inline float exponentiate(float* scores, int64_t padded, float shift) {
  const __m256 subtract = _mm256_set1_ps(shift);
  __m256 total0 = _mm256_setzero_ps(), total1 = _mm256_setzero_ps();
  for (int64_t j = 0; j < padded; j += 16) {
    const __m256 e0 = exp8(_mm256_sub_ps(_mm256_loadu_ps(scores + j), subtract));
    const __m256 e1 = exp8(_mm256_sub_ps(_mm256_loadu_ps(scores + j + 8), subtract));
    _mm256_storeu_ps(scores + j, e0);
    _mm256_storeu_ps(scores + j + 8, e1);
    total0 = _mm256_add_ps(total0, e0);
    total1 = _mm256_add_ps(total1, e1);
  }
  return horizontal_sum(_mm256_add_ps(total0, total1));
}

// out[c][r] = in[r][c] for an 8x8 block (rows `in_stride` and `out_stride` floats apart).
REFSCORE_AVX2 inline void transpose8x8(const float* in, int64_t in_stride, float* out, int64_t out_stride) {
  __m256 r[8], t[8];
  for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(in + i * in_stride);
  for (int i = 0; i < 8; i += 2) {
    t[i] = _mm256_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm256_unpackhi_ps(r[i], r[i + 1]);
  }
  for (int i = 0; i < 8; i += 4) {
    r[i] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(1, 0, 1, 0));
    r[i + 1] = _mm256_shuffle_ps(t[i], t[i + 2], _MM_SHUFFLE(3, 2, 3, 2));
    r[i + 2] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(1, 0, 1, 0));
    r[i + 3] = _mm256_shuffle_ps(t[i + 1], t[i + 3], _MM_SHUFFLE(3, 2, 3, 2));
  }
  for (int i = 0; i < 4; ++i) {
    _mm256_storeu_ps(out + i * out_stride, _mm256_permute2f128_ps(r[i], r[i + 4], 0x20));
    _mm256_storeu_ps(out + (i + 4) * out_stride, _mm256_permute2f128_ps(r[i], r[i + 4], 0x31));
  }
}

// out_r[c0 : c0 + 8 NV] = inverse_r * sum_j p_r[j] v_j[c0 : c0 + 8 NV] for two probability rows r (the second
// may repeat the first): 2 NV independent accumulators.
template <int NV>
REFSCORE_AVX2 inline void weighted_values(const float* p0, const float* p1, const float* values, int64_t stride,
                                          int64_t length, __m256 inverse0, __m256 inverse1, float* out0,
                                          float* out1) {
  __m256 a0[NV], a1[NV];
  for (int v = 0; v < NV; ++v) a0[v] = a1[v] = _mm256_setzero_ps();
  for (int64_t j = 0; j < length; ++j) {
    const __m256 w0 = _mm256_broadcast_ss(p0 + j), w1 = _mm256_broadcast_ss(p1 + j);
    const float* row = values + j * stride;
    for (int v = 0; v < NV; ++v) {
      const __m256 value = _mm256_loadu_ps(row + 8 * v);
      a0[v] = _mm256_fmadd_ps(w0, value, a0[v]);
      a1[v] = _mm256_fmadd_ps(w1, value, a1[v]);
    }
  }
  for (int v = 0; v < NV; ++v) {
    _mm256_storeu_ps(out0 + 8 * v, _mm256_mul_ps(a0[v], inverse0));
    _mm256_storeu_ps(out1 + 8 * v, _mm256_mul_ps(a1[v], inverse1));
  }
}

// Zeroes the padding columns (length..padded) of the transposed-keys buffer for a sequence of `length` tokens: the
// heads of the sequence write only the columns before them.
inline void zero_key_padding(Workspace& ws, int64_t head_size, int64_t length) {
  const int64_t padded = padded_length(length);
  for (int64_t c = 0; c < head_size; ++c)
    std::fill(ws.keys.data() + c * padded + length, ws.keys.data() + (c + 1) * padded, 0.0f);
}

// One head of one sequence (after zero_key_padding for it); head_size is a multiple of 8.
REFSCORE_AVX2 inline void head_avx2(const Layout& layout, int64_t first, int64_t length, int64_t head,
                                    Workspace& ws) {
  const int64_t stride = 3 * layout.width, d = layout.head_size, padded = padded_length(length);
  const float* queries = layout.qkv + first * stride + head * d;
  const float* keys = queries + layout.width;
  const float* values = keys + layout.width;
  float* transposed = ws.keys.data();
  int64_t j_full = length / 8 * 8;
  for (int64_t j = 0; j < j_full; j += 8)
    for (int64_t c = 0; c < d; c += 8) transpose8x8(keys + j * stride + c, stride, transposed + c * padded + j, padded);
  for (int64_t j = j_full; j < length; ++j)
    for (int64_t c = 0; c < d; ++c) transposed[c * padded + j] = keys[j * stride + c];
  // (the padding columns, length..padded, were zeroed for the sequence by zero_key_padding)
  // The rows of the products are 3 * width floats apart, which maps them to few cache sets: copy this head's
  // values together once, so the products below read them from the closest cache.
  float* head_values = ws.values.data();
  for (int64_t j = 0; j < length; ++j)
    for (int64_t c = 0; c < d; c += 8) _mm256_storeu_ps(head_values + j * d + c, _mm256_loadu_ps(values + j * stride + c));
  const __m256 scale = _mm256_set1_ps(layout.scale);
  // Added to the last sixteen scores of each row: 0 for keys, -inf for the padding after them.
  alignas(32) float mask[16];
  for (int64_t j = 0; j < 16; ++j)
    mask[j] = padded - 16 + j < length ? 0.0f : -std::numeric_limits<float>::infinity();
  const __m256 mask0 = _mm256_load_ps(mask), mask1 = _mm256_load_ps(mask + 8);
  float* scores = ws.scores.data();
  for (int64_t i0 = 0; i0 < length; i0 += 4) {
    const int64_t rows = std::min<int64_t>(4, length - i0);
    const float* q[4];
    for (int64_t r = 0; r < 4; ++r) q[r] = queries + (i0 + std::min(r, rows - 1)) * stride;
    __m256 best[4];
    for (int r = 0; r < 4; ++r) best[r] = _mm256_set1_ps(-std::numeric_limits<float>::infinity());
    // scores[r][j] = scale * <q_r, k_j>: four queries and sixteen keys at a time (eight accumulators)
    for (int64_t j = 0; j < padded; j += 16) {
      __m256 a[8];
      for (int v = 0; v < 8; ++v) a[v] = _mm256_setzero_ps();
      for (int64_t c = 0; c < d; ++c) {
        const __m256 k0 = _mm256_loadu_ps(transposed + c * padded + j);
        const __m256 k1 = _mm256_loadu_ps(transposed + c * padded + j + 8);
        for (int r = 0; r < 4; ++r) {
          const __m256 broadcast = _mm256_broadcast_ss(q[r] + c);
          a[2 * r] = _mm256_fmadd_ps(broadcast, k0, a[2 * r]);
          a[2 * r + 1] = _mm256_fmadd_ps(broadcast, k1, a[2 * r + 1]);
        }
      }
      const bool last = j + 16 == padded;
      for (int r = 0; r < 4; ++r) {
        __m256 s0 = _mm256_mul_ps(a[2 * r], scale), s1 = _mm256_mul_ps(a[2 * r + 1], scale);
        if (last) {
          s0 = _mm256_add_ps(s0, mask0);
          s1 = _mm256_add_ps(s1, mask1);
        }
        best[r] = _mm256_max_ps(best[r], _mm256_max_ps(s0, s1));
        _mm256_storeu_ps(scores + r * padded + j, s0);
        _mm256_storeu_ps(scores + r * padded + j + 8, s1);
      }
    }
    __m256 inverse[4];
    for (int64_t r = 0; r < rows; ++r)
      inverse[r] = _mm256_set1_ps(1.0f / exponentiate(scores + r * padded, padded, horizontal_max(best[r])));
    for (int64_t r = 0; r < rows; r += 2) {
      const int64_t r1 = std::min(r + 1, rows - 1);  // an odd last row is computed twice
      float* out0 = layout.context + (first + i0 + r) * layout.width + head * d;
      float* out1 = layout.context + (first + i0 + r1) * layout.width + head * d;
      const float* p0 = scores + r * padded;
      const float* p1 = scores + r1 * padded;
      int64_t c = 0;
      for (; c + 32 <= d; c += 32)
        weighted_values<4>(p0, p1, head_values + c, d, length, inverse[r], inverse[r1], out0 + c, out1 + c);
      switch ((d - c) / 8) {
        case 3: weighted_values<3>(p0, p1, head_values + c, d, length, inverse[r], inverse[r1], out0 + c, out1 + c);
                break;
        case 2: weighted_values<2>(p0, p1, head_values + c, d, length, inverse[r], inverse[r1], out0 + c, out1 + c);
                break;
        case 1: weighted_values<1>(p0, p1, head_values + c, d, length, inverse[r], inverse[r1], out0 + c, out1 + c);
                break;
        default: break;
      }
    }
  }
}

inline bool has_avx2() {
  static const bool supported = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return supported;
}
#endif

// ------------------------------------------------------------------------------------------------ entry point

// Whether packed_attention runs the AVX2+FMA path for heads of head_size.
inline bool vector_path_available(int64_t head_size) {
#ifdef REFSCORE_ATTENTION_AVX2
  return has_avx2() && head_size % 8 == 0;
#else
  (void)head_size;
  return false;
#endif
}

// Attention of every sequence (lengths[s] consecutive rows each, in order) and head, with the AVX2 path where
// available unless `portable`. Returns the number of tokens.
inline int64_t packed_attention(const Layout& layout, const int64_t* lengths, int64_t n_sequences, bool portable,
                                Workspace& ws) {
  int64_t longest = 0;
  for (int64_t s = 0; s < n_sequences; ++s) longest = std::max(longest, lengths[s]);
  const int64_t padded = padded_length(longest);
  ws.keys.resize(static_cast<size_t>(layout.head_size * padded));
  ws.values.resize(static_cast<size_t>(layout.head_size * std::max<int64_t>(longest, 1)));
  ws.scores.resize(static_cast<size_t>(4 * std::max<int64_t>(padded, 1)));
  const bool vector_path = !portable && vector_path_available(layout.head_size);
#ifdef REFSCORE_ATTENTION_AVX2
  // Strongly peaked attention makes probabilities and products below float's normal range, which this CPU
  // computes slowly: flush them to zero (a change below 1e-37 of any value) and restore the caller's mode after.
  const unsigned int caller_mode = _mm_getcsr();
  _mm_setcsr(caller_mode | 0x8040u);  // flush-to-zero and denormals-are-zero
#endif
  int64_t first = 0;
  for (int64_t s = 0; s < n_sequences; ++s) {
    for (int64_t head = 0; head < layout.heads; ++head) {
#ifdef REFSCORE_ATTENTION_AVX2
      if (vector_path) {
        if (head == 0) zero_key_padding(ws, layout.head_size, lengths[s]);
        head_avx2(layout, first, lengths[s], head, ws);
        continue;
      }
#endif
      head_scalar(layout, first, lengths[s], head, ws);
    }
    first += lengths[s];
  }
#ifdef REFSCORE_ATTENTION_AVX2
  _mm_setcsr(caller_mode);
#endif
  (void)vector_path;
  return first;
}

}  // namespace refscore_attention
