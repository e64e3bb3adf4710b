/**
 * The scaled forward pass and the backward sweep of Baum-Welch's E-step for the service's model
 * (8 states × 4 features) in WebAssembly text,
 * with 128-bit SIMD: two states per f64x2 lane pair. forward-kernel.ts assembles it with wabt at
 * load time, so no binary is committed and nothing needs a native toolchain.
 *
 * It computes exactly what forward-backward.ts's JS passes compute, per bar r:
 *   logB(s) = logNorm(s) + Σ_f (nh(s,f)·(x_f − μ(s,f)))·(x_f − μ(s,f))   same operations, same order
 *   m = max_s logB(s) (0 when every state is −∞)
 *   b(s) = logB(s) − m < LOG_FLUSH ? 0 : exp(logB(s) − m)
 *   α_r(j) = Σ_i α_{r−1}(i)·A(i, j) (i in order) · b(j), or π(j)·b(j) at r = 0
 *   c_r = Σ_j α_r(j) (j in order); α_r ← α_r / c_r, flushed below FLUSH
 * Lanes do IEEE double arithmetic one by one (no fused multiply-add), so every value equals the
 * JS pass's bit for bit, except exp: $exp below is a polynomial (within 2 ulp of Math.exp,
 * tested), which the JS pass calls per value at several times the cost.
 *
 * Memory, byte offsets passed in: x (t×4 rows), params p (below), b and alpha (t×8 rows),
 * rowMax and scale (t). The params block: μ feature-major at p+0 (μ(s,f) at (f·8+s)·8, so
 * a state pair is contiguous), nh = −½/σ² alike at p+256, logNorm at p+512, A row-major at
 * p+576, π at p+1088, Aᵀ at p+1152 (backward only). `forward` returns t, or the first bar whose scale is not positive (the caller
 * reports log-likelihood −∞).
 */
export const FORWARD_8X4_WAT = String.raw`
(module
  (import "env" "memory" (memory 1))

  ;; exp(y) for y in [LOG_FLUSH, 0] (callers clamp): y = k·ln2 + r with |r| <= ln2/2
  ;; (Cody-Waite split of ln2, as fdlibm), exp(r) by its Taylor series to degree 13 (remainder
  ;; under 5e-18 relative), then 2^k added straight into the exponent bits: every result here
  ;; is a normal double (>= 2^-500), so no scaling step is needed.
  (func $exp (param $y v128) (result v128)
    (local $k v128) (local $r v128) (local $p v128)
    (local.set $k (f64x2.nearest (f64x2.mul (local.get $y) (v128.const f64x2 1.4426950408889634 1.4426950408889634))))
    (local.set $r
      (f64x2.sub
        (f64x2.sub (local.get $y) (f64x2.mul (local.get $k) (v128.const f64x2 6.93147180369123816490e-01 6.93147180369123816490e-01)))
        (f64x2.mul (local.get $k) (v128.const f64x2 1.90821492927058770002e-10 1.90821492927058770002e-10))))
    (local.set $p (v128.const f64x2 1.6059043836821613e-10 1.6059043836821613e-10))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 2.08767569878681e-09 2.08767569878681e-09)))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 2.505210838544172e-08 2.505210838544172e-08)))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 2.755731922398589e-07 2.755731922398589e-07)))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 2.7557319223985893e-06 2.7557319223985893e-06)))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 2.48015873015873e-05 2.48015873015873e-05)))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 1.984126984126984e-04 1.984126984126984e-04)))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 1.3888888888888889e-03 1.3888888888888889e-03)))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 8.333333333333333e-03 8.333333333333333e-03)))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 4.1666666666666664e-02 4.1666666666666664e-02)))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 0.16666666666666666 0.16666666666666666)))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 0.5 0.5)))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 1 1)))
    (local.set $p (f64x2.add (f64x2.mul (local.get $p) (local.get $r)) (v128.const f64x2 1 1)))
    (i64x2.add (local.get $p)
      (i64x2.shl (i64x2.extend_low_i32x4_s (i32x4.trunc_sat_f64x2_s_zero (local.get $k))) (i32.const 52))))

  (func (export "forward") (param $t i32) (param $x i32) (param $p i32) (param $b i32) (param $rowmax i32)
                           (param $alpha i32) (param $scale i32) (result i32)
    (local $r i32) (local $row i32) (local $xr i32) (local $pr i32) (local $po i32) (local $i i32) (local $ai i32)
    (local $x0 v128) (local $x1 v128) (local $x2 v128) (local $x3 v128)
    (local $d v128) (local $acc v128) (local $mx v128) (local $y v128) (local $a v128)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local $m f64) (local $c f64) (local $inv v128) (local $w v128)
    (block $done
      (loop $bars
        (br_if $done (i32.ge_u (local.get $r) (local.get $t)))
        (local.set $row (i32.mul (local.get $r) (i32.const 64)))
        (local.set $xr (i32.add (local.get $x) (i32.mul (local.get $r) (i32.const 32))))
        (local.set $x0 (f64x2.splat (f64.load offset=0 (local.get $xr))))
        (local.set $x1 (f64x2.splat (f64.load offset=8 (local.get $xr))))
        (local.set $x2 (f64x2.splat (f64.load offset=16 (local.get $xr))))
        (local.set $x3 (f64x2.splat (f64.load offset=24 (local.get $xr))))

        ;; Emission log-densities of the four state pairs into the b row, and their maximum.
        (local.set $mx (v128.const f64x2 -inf -inf))
        (local.set $po (i32.const 0))
        (loop $pairs
          (local.set $pr (i32.add (local.get $p) (local.get $po)))
          (local.set $d (f64x2.sub (local.get $x0) (v128.load offset=0 (local.get $pr))))
          (local.set $acc (f64x2.add (v128.load offset=512 (local.get $pr))
            (f64x2.mul (f64x2.mul (v128.load offset=256 (local.get $pr)) (local.get $d)) (local.get $d))))
          (local.set $d (f64x2.sub (local.get $x1) (v128.load offset=64 (local.get $pr))))
          (local.set $acc (f64x2.add (local.get $acc)
            (f64x2.mul (f64x2.mul (v128.load offset=320 (local.get $pr)) (local.get $d)) (local.get $d))))
          (local.set $d (f64x2.sub (local.get $x2) (v128.load offset=128 (local.get $pr))))
          (local.set $acc (f64x2.add (local.get $acc)
            (f64x2.mul (f64x2.mul (v128.load offset=384 (local.get $pr)) (local.get $d)) (local.get $d))))
          (local.set $d (f64x2.sub (local.get $x3) (v128.load offset=192 (local.get $pr))))
          (local.set $acc (f64x2.add (local.get $acc)
            (f64x2.mul (f64x2.mul (v128.load offset=448 (local.get $pr)) (local.get $d)) (local.get $d))))
          (v128.store (i32.add (i32.add (local.get $b) (local.get $row)) (local.get $po)) (local.get $acc))
          (local.set $mx (f64x2.pmax (local.get $mx) (local.get $acc)))
          (local.set $po (i32.add (local.get $po) (i32.const 16)))
          (br_if $pairs (i32.lt_u (local.get $po) (i32.const 64))))
        (local.set $m (f64.max (f64x2.extract_lane 0 (local.get $mx)) (f64x2.extract_lane 1 (local.get $mx))))
        (if (f64.eq (local.get $m) (f64.const -inf)) (then (local.set $m (f64.const 0))))
        (f64.store (i32.add (local.get $rowmax) (i32.mul (local.get $r) (i32.const 8))) (local.get $m))

        ;; b = exp(logB − m), exactly 0 below the flush threshold (LOG_FLUSH = log 1e-150).
        (local.set $mx (f64x2.splat (local.get $m)))
        (local.set $po (i32.const 0))
        (loop $exps
          (local.set $pr (i32.add (i32.add (local.get $b) (local.get $row)) (local.get $po)))
          (local.set $y (f64x2.sub (v128.load (local.get $pr)) (local.get $mx)))
          (v128.store (local.get $pr)
            (v128.andnot
              (call $exp (f64x2.pmax (local.get $y) (v128.const f64x2 -345.38776394910684 -345.38776394910684)))
              (f64x2.lt (local.get $y) (v128.const f64x2 -345.38776394910684 -345.38776394910684))))
          (local.set $po (i32.add (local.get $po) (i32.const 16)))
          (br_if $exps (i32.lt_u (local.get $po) (i32.const 64))))

        ;; Forward step: v = (α_{r−1}·A) ∘ b_r, or π ∘ b_0 on the first bar.
        (local.set $pr (i32.add (local.get $b) (local.get $row)))
        (if (i32.eqz (local.get $r))
          (then
            (local.set $v0 (f64x2.mul (v128.load offset=1088 (local.get $p)) (v128.load offset=0 (local.get $pr))))
            (local.set $v1 (f64x2.mul (v128.load offset=1104 (local.get $p)) (v128.load offset=16 (local.get $pr))))
            (local.set $v2 (f64x2.mul (v128.load offset=1120 (local.get $p)) (v128.load offset=32 (local.get $pr))))
            (local.set $v3 (f64x2.mul (v128.load offset=1136 (local.get $p)) (v128.load offset=48 (local.get $pr)))))
          (else
            (local.set $v0 (v128.const f64x2 0 0))
            (local.set $v1 (v128.const f64x2 0 0))
            (local.set $v2 (v128.const f64x2 0 0))
            (local.set $v3 (v128.const f64x2 0 0))
            (local.set $i (i32.const 0))
            (loop $sources
              (local.set $a (f64x2.splat (f64.load
                (i32.add (i32.add (local.get $alpha) (i32.sub (local.get $row) (i32.const 64))) (i32.mul (local.get $i) (i32.const 8))))))
              (local.set $ai (i32.add (local.get $p) (i32.mul (local.get $i) (i32.const 64))))
              (local.set $v0 (f64x2.add (local.get $v0) (f64x2.mul (local.get $a) (v128.load offset=576 (local.get $ai)))))
              (local.set $v1 (f64x2.add (local.get $v1) (f64x2.mul (local.get $a) (v128.load offset=592 (local.get $ai)))))
              (local.set $v2 (f64x2.add (local.get $v2) (f64x2.mul (local.get $a) (v128.load offset=608 (local.get $ai)))))
              (local.set $v3 (f64x2.add (local.get $v3) (f64x2.mul (local.get $a) (v128.load offset=624 (local.get $ai)))))
              (local.set $i (i32.add (local.get $i) (i32.const 1)))
              (br_if $sources (i32.lt_u (local.get $i) (i32.const 8))))
            (local.set $v0 (f64x2.mul (local.get $v0) (v128.load offset=0 (local.get $pr))))
            (local.set $v1 (f64x2.mul (local.get $v1) (v128.load offset=16 (local.get $pr))))
            (local.set $v2 (f64x2.mul (local.get $v2) (v128.load offset=32 (local.get $pr))))
            (local.set $v3 (f64x2.mul (local.get $v3) (v128.load offset=48 (local.get $pr))))))

        ;; c_r summed over the states in order, as the JS pass does.
        (local.set $c (f64.add (f64.add (f64.add (f64.add (f64.add (f64.add (f64.add
          (f64x2.extract_lane 0 (local.get $v0)) (f64x2.extract_lane 1 (local.get $v0)))
          (f64x2.extract_lane 0 (local.get $v1))) (f64x2.extract_lane 1 (local.get $v1)))
          (f64x2.extract_lane 0 (local.get $v2))) (f64x2.extract_lane 1 (local.get $v2)))
          (f64x2.extract_lane 0 (local.get $v3))) (f64x2.extract_lane 1 (local.get $v3))))
        (if (i32.eqz (f64.gt (local.get $c) (f64.const 0))) (then (return (local.get $r))))
        (f64.store (i32.add (local.get $scale) (i32.mul (local.get $r) (i32.const 8))) (local.get $c))

        ;; α_r = v / c_r, flushed to exactly 0 below FLUSH = 1e-150.
        (local.set $inv (f64x2.splat (f64.div (f64.const 1) (local.get $c))))
        (local.set $pr (i32.add (local.get $alpha) (local.get $row)))
        (local.set $w (f64x2.mul (local.get $v0) (local.get $inv)))
        (v128.store offset=0 (local.get $pr) (v128.andnot (local.get $w) (f64x2.lt (local.get $w) (v128.const f64x2 1e-150 1e-150))))
        (local.set $w (f64x2.mul (local.get $v1) (local.get $inv)))
        (v128.store offset=16 (local.get $pr) (v128.andnot (local.get $w) (f64x2.lt (local.get $w) (v128.const f64x2 1e-150 1e-150))))
        (local.set $w (f64x2.mul (local.get $v2) (local.get $inv)))
        (v128.store offset=32 (local.get $pr) (v128.andnot (local.get $w) (f64x2.lt (local.get $w) (v128.const f64x2 1e-150 1e-150))))
        (local.set $w (f64x2.mul (local.get $v3) (local.get $inv)))
        (v128.store offset=48 (local.get $pr) (v128.andnot (local.get $w) (f64x2.lt (local.get $w) (v128.const f64x2 1e-150 1e-150))))

        (local.set $r (i32.add (local.get $r) (i32.const 1)))
        (br $bars)))
    (local.get $t))

  ;; Backward sweep from the last bar down, β kept in four lane pairs (β = 1 after the last bar):
  ;;   n_r = Σ_s α_r(s)·β_r(s) (s in order); γ_r(s) = α_r(s)·β_r(s)·(n_r > 0 ? 1/n_r : 0)
  ;;   w_r(j) = b_r(j)·β_r(j)·(1/c_r), flushed; β_{r−1}(i) = Σ_j A(i, j)·w_r(j) (j in order)
  ;; γ and w go state-major (state s of bar r at s·t + r), as em-statistics.ts sums them. A is
  ;; read transposed (Aᵀ at p+1152, row-major) so a pair of source states is one load.
  (func (export "backward") (param $t i32) (param $p i32) (param $b i32) (param $alpha i32) (param $scale i32)
                            (param $g i32) (param $w i32)
    (local $r i32) (local $row i32) (local $tb i32) (local $at i32) (local $j i32)
    (local $be0 v128) (local $be1 v128) (local $be2 v128) (local $be3 v128)
    (local $q0 v128) (local $q1 v128) (local $q2 v128) (local $q3 v128)
    (local $w0 v128) (local $w1 v128) (local $w2 v128) (local $w3 v128)
    (local $n0 v128) (local $n1 v128) (local $n2 v128) (local $n3 v128)
    (local $n f64) (local $inv v128) (local $wj v128) (local $aj i32)
    (local.set $tb (i32.mul (local.get $t) (i32.const 8)))
    (local.set $be0 (v128.const f64x2 1 1))
    (local.set $be1 (v128.const f64x2 1 1))
    (local.set $be2 (v128.const f64x2 1 1))
    (local.set $be3 (v128.const f64x2 1 1))
    (local.set $r (i32.sub (local.get $t) (i32.const 1)))
    (loop $bars
      (local.set $row (i32.add (local.get $alpha) (i32.mul (local.get $r) (i32.const 64))))
      (local.set $q0 (f64x2.mul (v128.load offset=0 (local.get $row)) (local.get $be0)))
      (local.set $q1 (f64x2.mul (v128.load offset=16 (local.get $row)) (local.get $be1)))
      (local.set $q2 (f64x2.mul (v128.load offset=32 (local.get $row)) (local.get $be2)))
      (local.set $q3 (f64x2.mul (v128.load offset=48 (local.get $row)) (local.get $be3)))
      (local.set $n (f64.add (f64.add (f64.add (f64.add (f64.add (f64.add (f64.add
        (f64x2.extract_lane 0 (local.get $q0)) (f64x2.extract_lane 1 (local.get $q0)))
        (f64x2.extract_lane 0 (local.get $q1))) (f64x2.extract_lane 1 (local.get $q1)))
        (f64x2.extract_lane 0 (local.get $q2))) (f64x2.extract_lane 1 (local.get $q2)))
        (f64x2.extract_lane 0 (local.get $q3))) (f64x2.extract_lane 1 (local.get $q3))))
      (local.set $inv (f64x2.splat (select (f64.div (f64.const 1) (local.get $n)) (f64.const 0) (f64.gt (local.get $n) (f64.const 0)))))
      (local.set $at (i32.add (local.get $g) (i32.mul (local.get $r) (i32.const 8))))
      (call $columns (local.get $at) (local.get $tb)
        (f64x2.mul (local.get $q0) (local.get $inv)) (f64x2.mul (local.get $q1) (local.get $inv))
        (f64x2.mul (local.get $q2) (local.get $inv)) (f64x2.mul (local.get $q3) (local.get $inv)))
      (if (i32.eqz (local.get $r)) (then (return)))

      (local.set $inv (f64x2.splat (f64.div (f64.const 1) (f64.load (i32.add (local.get $scale) (i32.mul (local.get $r) (i32.const 8)))))))
      (local.set $row (i32.add (local.get $b) (i32.mul (local.get $r) (i32.const 64))))
      (local.set $w0 (call $flush (f64x2.mul (f64x2.mul (v128.load offset=0 (local.get $row)) (local.get $be0)) (local.get $inv))))
      (local.set $w1 (call $flush (f64x2.mul (f64x2.mul (v128.load offset=16 (local.get $row)) (local.get $be1)) (local.get $inv))))
      (local.set $w2 (call $flush (f64x2.mul (f64x2.mul (v128.load offset=32 (local.get $row)) (local.get $be2)) (local.get $inv))))
      (local.set $w3 (call $flush (f64x2.mul (f64x2.mul (v128.load offset=48 (local.get $row)) (local.get $be3)) (local.get $inv))))
      (call $columns (i32.add (local.get $w) (i32.mul (local.get $r) (i32.const 8))) (local.get $tb)
        (local.get $w0) (local.get $w1) (local.get $w2) (local.get $w3))

      ;; β_{r−1} = A·w_r: for each target j in order, every source pair gains Aᵀ(j, i..i+1)·w_r(j).
      (local.set $n0 (v128.const f64x2 0 0))
      (local.set $n1 (v128.const f64x2 0 0))
      (local.set $n2 (v128.const f64x2 0 0))
      (local.set $n3 (v128.const f64x2 0 0))
      (local.set $j (i32.const 0))
      (loop $targets
        (local.set $wj (f64x2.splat (f64.load (i32.add (i32.add (local.get $w) (i32.mul (local.get $j) (local.get $tb)))
                                                       (i32.mul (local.get $r) (i32.const 8))))))
        (local.set $aj (i32.add (local.get $p) (i32.mul (local.get $j) (i32.const 64))))
        (local.set $n0 (f64x2.add (local.get $n0) (f64x2.mul (v128.load offset=1152 (local.get $aj)) (local.get $wj))))
        (local.set $n1 (f64x2.add (local.get $n1) (f64x2.mul (v128.load offset=1168 (local.get $aj)) (local.get $wj))))
        (local.set $n2 (f64x2.add (local.get $n2) (f64x2.mul (v128.load offset=1184 (local.get $aj)) (local.get $wj))))
        (local.set $n3 (f64x2.add (local.get $n3) (f64x2.mul (v128.load offset=1200 (local.get $aj)) (local.get $wj))))
        (local.set $j (i32.add (local.get $j) (i32.const 1)))
        (br_if $targets (i32.lt_u (local.get $j) (i32.const 8))))
      (local.set $be0 (local.get $n0))
      (local.set $be1 (local.get $n1))
      (local.set $be2 (local.get $n2))
      (local.set $be3 (local.get $n3))
      (local.set $r (i32.sub (local.get $r) (i32.const 1)))
      (br $bars)))

  ;; Values under FLUSH = 1e-150 become exactly 0 (underflow.ts).
  (func $flush (param $v v128) (result v128)
    (v128.andnot (local.get $v) (f64x2.lt (local.get $v) (v128.const f64x2 1e-150 1e-150))))

  ;; The eight lanes of one bar into their state-major columns: state s at at + s·stride.
  (func $columns (param $at i32) (param $stride i32) (param $v0 v128) (param $v1 v128) (param $v2 v128) (param $v3 v128)
    (f64.store (local.get $at) (f64x2.extract_lane 0 (local.get $v0)))
    (local.set $at (i32.add (local.get $at) (local.get $stride)))
    (f64.store (local.get $at) (f64x2.extract_lane 1 (local.get $v0)))
    (local.set $at (i32.add (local.get $at) (local.get $stride)))
    (f64.store (local.get $at) (f64x2.extract_lane 0 (local.get $v1)))
    (local.set $at (i32.add (local.get $at) (local.get $stride)))
    (f64.store (local.get $at) (f64x2.extract_lane 1 (local.get $v1)))
    (local.set $at (i32.add (local.get $at) (local.get $stride)))
    (f64.store (local.get $at) (f64x2.extract_lane 0 (local.get $v2)))
    (local.set $at (i32.add (local.get $at) (local.get $stride)))
    (f64.store (local.get $at) (f64x2.extract_lane 1 (local.get $v2)))
    (local.set $at (i32.add (local.get $at) (local.get $stride)))
    (f64.store (local.get $at) (f64x2.extract_lane 0 (local.get $v3)))
    (local.set $at (i32.add (local.get $at) (local.get $stride)))
    (f64.store (local.get $at) (f64x2.extract_lane 1 (local.get $v3))))

  ;; exp on n doubles in place (tests check it against Math.exp); n even.
  (func (export "expInPlace") (param $at i32) (param $n i32)
    (local $end i32)
    (local.set $end (i32.add (local.get $at) (i32.mul (local.get $n) (i32.const 8))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $at) (local.get $end)))
        (v128.store (local.get $at) (call $exp (v128.load (local.get $at))))
        (local.set $at (i32.add (local.get $at) (i32.const 16)))
        (br $next))))
)
`;
