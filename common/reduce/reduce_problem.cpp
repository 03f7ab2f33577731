// The reduction problem for the generic harness, and the one instantiation of stage_main and
// ladder_main for it.
#include "reduce_problem.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "binned_sum.hpp"
#include "cub_reduce.hpp"
#include "cuda_check.hpp"
#include "drivers_impl.hpp"
#include "inputs.hpp"

namespace harness {

namespace {

std::string fmt(const char* f, double a, double b, double c = 0, double d = 0) {
  char buf[320];
  std::snprintf(buf, sizeof buf, f, a, b, c, d);
  return buf;
}

// A binned stage's check on data that is not exact: its output's bits must be the CPU's binned
// sum's (ReduceReference::binned); the error against the double reference is reported alongside.
Verification check_binned(Verification v, const void* out, DType out_type, const ReduceReference& ref) {
  unsigned char want[8];
  const std::size_t size = dtype_size(out_type);
  if (out_type == DType::f32) {
    const float f = static_cast<float>(ref.binned);  // exact: it was a float
    std::memcpy(want, &f, sizeof f);
  } else {
    std::memcpy(want, &ref.binned, sizeof ref.binned);
  }
  v.kind = CheckKind::exact;
  v.ok = std::memcmp(out, want, size) == 0;
  v.abs_err = std::fabs(v.got - ref.value);
  if (std::isnan(v.abs_err)) v.abs_err = (std::isnan(v.got) && std::isnan(ref.value)) || v.got == ref.value ? 0 : INFINITY;
  std::uint64_t got_bits = 0, want_bits = 0;
  std::memcpy(&got_bits, out, size);
  std::memcpy(&want_bits, want, size);
  const int digits = static_cast<int>(2 * size);
  char buf[320];
  std::snprintf(buf, sizeof buf, "bits 0x%0*llx %s the CPU's binned sum 0x%0*llx (%.9g); |err| against the double sum %.3g",
                digits, static_cast<unsigned long long>(got_bits), v.ok ? "==" : "!=", digits,
                static_cast<unsigned long long>(want_bits), ref.binned, v.abs_err);
  v.message = buf;
  return v;
}

}  // namespace

void Reduce::add_flags(CLI::App& app, Config& c, const std::vector<const Stage<Reduce>*>& stages) {
  std::vector<std::string> ops;
  for (const Stage<Reduce>* s : stages)
    for (Op op : s->caps.ops)
      if (std::find(ops.begin(), ops.end(), op_name(op)) == ops.end()) ops.push_back(op_name(op));
  // A binned stage (stage 6) sums only, but it takes --op so that max and min are refused with a
  // line that names the stage to run instead (Reduce::validate), not as an unknown flag.
  const bool binned = std::any_of(stages.begin(), stages.end(), [](const Stage<Reduce>* s) { return s->caps.binned; });
  if (ops.size() < 2 && !binned) return;  // a sum-only stage takes no --op
  std::string help = "Reduction operator: " + CLI::detail::join(ops, ", ") + " (default sum)";
  if (ops.size() < 2) help = "Reduction operator: sum only (max and min are refused, naming the stage that runs them)";
  app.add_option_function<std::string>("--op", [&c](const std::string& s) { c.op = parse_op(s); }, help)
      ->check(CLI::IsMember({"sum", "max", "min"}));
}

std::string Reduce::describe(const Config& c) { return std::string("op ") + op_name(c.op); }

void Reduce::add_columns(const Config& c, Record& r) { r.add("op", std::string(op_name(c.op))); }

std::vector<std::string> Reduce::dist_names() { return {"signed", "uniform", "skewed", "exact"}; }

std::string Reduce::dist_help() {
  return "Input distribution of the timed data: signed [-1, 1), uniform [0, 1), skewed (heavy-tailed), "
         "or exact (every element +1 or -1: no zeros, so a lost element always shows). Pass/fail is always "
         "decided on exact data";
}

const char* Reduce::exact_dist_help() { return "every element +1 or -1 with random signs, so no element is zero; every partial sum exact in any data-independent order"; }

std::vector<unsigned char> Reduce::generate(DType type, const Config&, std::size_t n,
                                            const std::string& dist, std::uint64_t seed) {
  return generate_bytes(type, n, dist, seed);
}

Reduce::Reference Reduce::reference(DType type, const Config& c, std::vector<unsigned char>& host,
                                    std::size_t n, bool exact_data) {
  if (exact_data) require_exact_data(type, host.data(), n);
  return with_input_type(type, [&](auto t) {
    using T = decltype(t);
    return compute_reference(reinterpret_cast<const T*>(host.data()), n, c.op);
  });
}

void Reduce::validate(const Stage<Reduce>& s, const Args& a) {
  if (std::find(s.caps.ops.begin(), s.caps.ops.end(), a.op) == s.caps.ops.end())
    throw UsageError(s.name + ": operator " + op_name(a.op) + " is not supported" +
                     (s.instead.empty() ? std::string() : "; run " + s.instead + " instead"));
  if (s.caps.binned) {
    const std::size_t most = a.type == DType::f64 ? binned_max_elements<double>() : binned_max_elements<float>();
    if (a.n > most)
      throw UsageError(s.name + ": n = " + std::to_string(a.n) + " is past the " + std::to_string(most) +
                       " elements whose binned sum its 64-bit bins always hold exactly");
  }
}

DType Reduce::output_type(const Stage<Reduce>& s, const Args& a) {
  return s.caps.out_type ? s.caps.out_type(a.type, a.op) : a.type;
}

void Reduce::run_empty(const Stage<Reduce>& s, const Args& a) {
  write_identity(a.out, output_type(s, a), a.op, a.stream);
}

namespace {

// A float or double result `got` against the reference: NaN must meet NaN; exact data, max and min
// must match exactly; a sum of other data must stay within its depth bound, and is not checked
// where that bound is not below |sum|.
Verification check_floating(Verification v, double got, const Stage<Reduce>& s, const ReduceArgs& a,
                            const ReduceReference& ref, DType out_type, bool exact_data) {
  v.got = got;
  if (std::isnan(ref.value) || std::isnan(got)) {
    v.kind = CheckKind::exact;
    v.ok = std::isnan(ref.value) && std::isnan(got);
    v.abs_err = v.ok ? 0 : std::numeric_limits<double>::infinity();
    v.message = v.ok ? "NaN as expected" : fmt("got %.9g, expected %.9g (NaN mismatch)", got, ref.value);
    return v;
  }
  v.abs_err = std::fabs(got - ref.value);
  if (std::isinf(ref.value) || std::isinf(got)) v.abs_err = (got == ref.value) ? 0 : INFINITY;
  if (a.op != Op::sum || exact_data) {
    v.kind = CheckKind::exact;
    v.ok = (got == ref.value);
    v.message = v.ok ? fmt("got %.17g == expected %.17g", got, ref.value)
                     : fmt("got %.17g, expected exactly %.17g (|err| %.3g)", got, ref.value, v.abs_err);
    return v;
  }
  const double depth = s.depth ? s.depth(a) : static_cast<double>(a.n);
  v.bound = depth_error_bound(depth, machine_epsilon(out_type), ref.abs_sum);
  if (!(v.bound < std::fabs(ref.value))) {
    v.kind = CheckKind::unchecked;
    v.ok = true;
    v.message = fmt("|err| %.3g; the depth bound %.3g (depth %.0f) is not below |sum| %.3g, so it "
                    "cannot tell a right sum from a wrong one",
                    v.abs_err, v.bound, depth, std::fabs(ref.value));
    return v;
  }
  v.kind = CheckKind::bound;
  v.ok = v.abs_err <= v.bound;
  v.message = v.ok ? fmt("|err| %.3g <= bound %.3g (depth %.0f)", v.abs_err, v.bound, depth)
                   : fmt("|err| %.3g exceeds bound %.3g (depth %.0f); got %.17g", v.abs_err, v.bound, depth, got);
  return v;
}

// An int or int64 result `got` against the exact reference: always exact; an int32 output whose
// exact sum does not fit fails.
Verification check_integer(Verification v, long long got, const ReduceReference& ref, DType out_type) {
  v.kind = CheckKind::exact;
  v.got = static_cast<double>(got);
  v.abs_err = std::fabs(static_cast<double>(got) - static_cast<double>(ref.exact));
  if (out_type == DType::i32 &&
      (ref.exact > std::numeric_limits<int>::max() || ref.exact < std::numeric_limits<int>::min())) {
    v.ok = false;
    v.message = "exact sum " + std::to_string(ref.exact) +
                " does not fit in a 32-bit int: the int reduction overflows (use a wider output)";
    return v;
  }
  v.ok = (got == ref.exact);
  v.message = v.ok ? "got " + std::to_string(got) + " == expected"
                   : "got " + std::to_string(got) + ", expected exactly " + std::to_string(ref.exact);
  return v;
}

// The one output element at `out`, of type T, as U.
template <class T, class U>
U read_result(const void* out) {
  T x;
  std::memcpy(&x, out, sizeof x);
  return static_cast<U>(x);
}

}  // namespace

Verification Reduce::check(const Stage<Reduce>& s, const Args& a, const Reference& ref,
                           const void* out, bool exact_data) {
  Verification v;
  v.expected = ref.value;
  const DType out_type = output_type(s, a);
  if (out_type == DType::f32 || out_type == DType::f64) {
    const double got = out_type == DType::f32 ? read_result<float, double>(out) : read_result<double, double>(out);
    if (s.caps.binned && ref.has_binned && !exact_data) {
      v.got = got;
      return check_binned(v, out, out_type, ref);
    }
    return check_floating(v, got, s, a, ref, out_type, exact_data);
  }
  const long long got = out_type == DType::i32 ? read_result<int, long long>(out) : read_result<long long, long long>(out);
  return check_integer(v, got, ref, out_type);
}

Stage<Reduce> Reduce::baseline(DType type, const Config& c, const std::vector<const Stage<Reduce>*>& stages) {
  const bool wide = type == DType::i32 && c.op == Op::sum &&
                    std::any_of(stages.begin(), stages.end(), [&](const Stage<Reduce>* s) {
                      Args a;
                      a.type = type;
                      a.op = c.op;
                      return output_type(*s, a) == DType::i64;
                    });
  return wide ? cub_reduce_wide_int_stage() : cub_reduce_stage();
}

void write_identity(void* out, DType out_type, Op op, cudaStream_t stream) {
  unsigned char bytes[8] = {};
  auto put = [&](auto v) { std::memcpy(bytes, &v, sizeof v); };
  auto lowest_or_highest = [&](auto tag) {
    using T = decltype(tag);
    if (op == Op::max) {
      put(std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                               : std::numeric_limits<T>::lowest());
    } else {
      put(std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                               : std::numeric_limits<T>::max());
    }
  };
  if (op != Op::sum) {
    switch (out_type) {
      case DType::f32: lowest_or_highest(float{}); break;
      case DType::f64: lowest_or_highest(double{}); break;
      case DType::i32: lowest_or_highest(int{}); break;
      case DType::i64: lowest_or_highest(static_cast<long long>(0)); break;
      case DType::u8: lowest_or_highest(static_cast<unsigned char>(0)); break;
    }
  }
  CUDA_CHECK(cudaMemcpyAsync(out, bytes, dtype_size(out_type), cudaMemcpyHostToDevice, stream));
  CUDA_CHECK(cudaStreamSynchronize(stream));  // `bytes` lives on this stack frame
}

template int stage_main<Reduce>(int, char**, const StageProgram<Reduce>&);
template int ladder_main<Reduce>(int, char**, const LadderSpec<Reduce>&);

}  // namespace harness
