#include "tir/access_trace.h"

#include <algorithm>
#include <cstring>
#include <limits>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace loupe::tir {

namespace {

using Value = std::optional<std::int64_t>;

// What a kernel of loupe/simd_kernels.h reads and writes through its
// pointer arguments, in elements: from argument `read`, starting at the
// element it points to, `readLength` (an argument index) elements or taps
// further on, never below it; `writeLength` elements from argument `write`.
// A call is traced as if it wrote its whole output before reading anything,
// the worst order its loops could take, so of its reads only the first -
// the lowest address - bounds how far the output may run ahead.
struct KernelAccess {
  std::string_view name;
  std::size_t read, readLength;
  std::size_t write, writeLength;
  // Whether the reads are the `readLength` elements from the pointer on, so
  // the highest one is known too (a depthwise window's are not).
  bool contiguous;
  // Output pixels of `writeLength` elements each, one after the other: a
  // fixed count, or (a kernel over several pixels) the argument giving it,
  // when not 0. Contiguous reads are then `readLength` per pixel too.
  std::int64_t pixels = 1;
  std::size_t pixelsArgument = 0;
};

// conv_pixel_s8(patch, filter, length, channels, ..., out): `length` bytes
// of the patch, `channels` outputs. dw_3x3_s8(window, row_step, col_step,
// filter, channels, ..., out), dw_3x3_x16_s8 alike, and dw_pixel_s8(window, row_step, col_step,
// filter, filter_row, taps_h, taps_w, channels, ..., out): a window of taps
// `channels` bytes each, from `window` on (both steps are positive), and
// `channels` outputs. conv_pixels_s8(patches, filter, length, channels,
// pixels, ..., out): `pixels` patches and outputs one after the other. The
// ADD kernel reads two inputs and is not described,
// so operators calling it are not traced.
constexpr KernelAccess kKernelAccesses[] = {
    {"loupe.thumb.conv_pixel_s8", 0, 2, 10, 3, true},
    {"loupe.dsp.conv_pixel_s8", 0, 2, 10, 3, true},
    {"loupe.mve.conv_pixel_s8", 0, 2, 10, 3, true},
    {"loupe.mve.conv_pixels_s8", 0, 2, 11, 3, true, 1, 4},
    {"loupe.mve.conv_pixels_4ch_s8", 0, 2, 11, 3, true, 1, 4},
    {"loupe.mve.dw_3x3_s8", 0, 4, 11, 4, false},
    {"loupe.mve.dw_3x3_x16_s8", 0, 4, 11, 4, false},
    {"loupe.mve.dw_pixel_s8", 0, 7, 15, 7, false},
    // dw_3x3_clipped_x16_s8(window, row_step, col_step, filter, channels,
    // four tap bounds, zero point, ..., out): the taps inside, from window on.
    {"loupe.mve.dw_3x3_clipped_x16_s8", 0, 4, 16, 4, false},
    {"loupe.mve.dw_3x3_clipped_inline_x16_s8", 0, 4, 16, 4, false},
    {"loupe.thumb.dw_3x3_s8", 0, 4, 11, 4, false},
    {"loupe.thumb.dw_pixel_s8", 0, 7, 15, 7, false},
    // dw_3x3_x2_s8(window, row_step, col_step, pixel_step, filter, channels,
    // ..., out): two adjacent windows, two pixels of outputs.
    {"loupe.thumb.dw_3x3_x2_s8", 0, 5, 12, 5, false, 2},
    {"loupe.dsp.dw_3x3_s8", 0, 4, 11, 4, false},
    {"loupe.dsp.dw_pixel_s8", 0, 7, 15, 7, false},
};

// Thrown to stop the trace where it cannot follow the function.
struct Untraceable {
  std::string why;
};

class Tracer {
 public:
  Tracer(const BufferNode* input, const BufferNode* output, std::int64_t limit)
      : input_(input),
        output_(output),
        inputBytes_(static_cast<std::int64_t>(scalarTypeBytes(input->type))),
        outputBytes_(static_cast<std::int64_t>(scalarTypeBytes(output->type))),
        limit_(limit) {}

  void run(const Stmt& s) {
    switch (s->kind) {
      case StmtKind::Seq:
        for (const Stmt& child : s->seq) run(child);
        return;
      case StmtKind::For: {
        const Value min = eval(s->min);
        const Value extent = eval(s->extent);
        if (!min || !extent) throw Untraceable{"a loop whose bounds depend on the data"};
        for (std::int64_t i = *min; i < *min + *extent; ++i) {
          count();
          vars_[s->var.get()] = i;
          run(s->body);
        }
        vars_.erase(s->var.get());
        return;
      }
      case StmtKind::Let:
        vars_[s->var.get()] = eval(s->value);
        run(s->body);
        vars_.erase(s->var.get());
        return;
      case StmtKind::IfThenElse: {
        const Value condition = eval(s->condition);
        if (!condition) throw Untraceable{"a branch on the data"};
        if (*condition != 0) {
          run(s->body);
        } else if (s->otherwise) {
          run(s->otherwise);
        }
        return;
      }
      case StmtKind::While:
        for (;;) {
          count();
          const Value condition = eval(s->condition);
          if (!condition) throw Untraceable{"a loop that runs until the data says so"};
          if (*condition == 0) return;
          run(s->body);
        }
      case StmtKind::Store: {
        // The value's loads happen before the store, as in `out[i] = f(in[i])`.
        eval(s->value);
        const Value index = eval(s->index);
        if (s->buffer.get() == output_) {
          if (!index) throw Untraceable{"a store to the output at an index from the data"};
          count();
          wrote(*index * outputBytes_, (*index + 1) * outputBytes_);
        } else if (s->buffer.get() == input_) {
          throw Untraceable{"a store to the input"};
        }
        return;
      }
      case StmtKind::Allocate:
        run(s->body);
        return;
      case StmtKind::Evaluate:
        eval(s->value);
        return;
    }
  }

  std::int64_t lag() const { return lag_; }
  std::optional<std::int64_t> lead() const {
    return leadKnown_ ? std::optional<std::int64_t>(lead_) : std::nullopt;
  }
  std::int64_t events() const { return events_; }

 private:
  void count() {
    if (++events_ > limit_) throw Untraceable{"too long to trace"};
  }

  void wrote(std::int64_t begin, std::int64_t end) {
    writeBegin_ = std::min(writeBegin_, begin);
    writeEnd_ = std::max(writeEnd_, end);
  }

  // Elements [index, index + length) read; an unknown length leaves the
  // lead unknown.
  void read(std::int64_t index, std::optional<std::int64_t> length = 1) {
    count();
    if (writeEnd_ == std::numeric_limits<std::int64_t>::min()) return;  // nothing written yet
    lag_ = std::max(lag_, writeEnd_ - index * inputBytes_);
    if (!length) {
      leadKnown_ = false;
    } else {
      lead_ = std::max(lead_, (index + *length) * inputBytes_ - writeBegin_);
    }
  }

  static Value constantElement(const BufferNode& buffer, std::int64_t index) {
    const std::size_t size = scalarTypeBytes(buffer.type);
    const std::size_t at = static_cast<std::size_t>(index) * size;
    if (index < 0 || isFloat(buffer.type) || at + size > buffer.data.size()) return std::nullopt;
    std::int64_t value = 0;
    switch (buffer.type) {
      case ScalarType::Int8:
        return static_cast<std::int8_t>(buffer.data[at]);
      case ScalarType::UInt8:
        return buffer.data[at];
      case ScalarType::Int16: {
        std::int16_t v;
        std::memcpy(&v, buffer.data.data() + at, sizeof v);
        return v;
      }
      case ScalarType::Int32: {
        std::int32_t v;
        std::memcpy(&v, buffer.data.data() + at, sizeof v);
        return v;
      }
      case ScalarType::Int64:
        std::memcpy(&value, buffer.data.data() + at, sizeof value);
        return value;
      default:
        return std::nullopt;
    }
  }

  Value both(const Expr& e, std::int64_t (*op)(std::int64_t, std::int64_t)) {
    const Value a = eval(e->operands[0]);
    const Value b = eval(e->operands[1]);
    if (!a || !b) return std::nullopt;
    return op(*a, *b);
  }

  // A kernel's pointer argument into `buffer` at a known element index,
  // or nothing when it points elsewhere.
  Value pointerInto(const Expr& argument, const BufferNode* buffer) {
    if (argument->kind != ExprKind::AddressOf || argument->buffer.get() != buffer) return {};
    const Value index = argument->operands.empty() ? Value(0) : eval(argument->operands[0]);
    if (!index) throw Untraceable{"a kernel handed a pointer at an index from the data"};
    return index;
  }

  void kernelCall(const Expr& call, const KernelAccess& access) {
    const auto& args = call->operands;
    for (std::size_t i = 0; i < args.size(); ++i) {
      if (i != access.read && i != access.write) refusePointerInto(args[i]);
    }
    auto value = [&](std::size_t i) {
      const Value v = i < args.size() ? eval(args[i]) : std::nullopt;
      if (!v || *v < 0) throw Untraceable{"a kernel call whose extent depends on the data"};
      return *v;
    };
    const std::int64_t pixels =
        access.pixelsArgument == 0 ? access.pixels : value(access.pixelsArgument);
    if (const Value out = pointerInto(args.at(access.write), output_)) {
      count();
      wrote(*out * outputBytes_, (*out + pixels * value(access.writeLength)) * outputBytes_);
    } else if (pointerInto(args.at(access.write), input_)) {
      throw Untraceable{"a kernel writing into the input"};
    }
    if (const Value in = pointerInto(args.at(access.read), input_)) {
      // Its first element is what a store must not pass; its last, what a
      // store running the other way must stay above.
      const std::int64_t length = pixels * value(access.readLength);
      if (length > 0) read(*in, access.contiguous ? std::optional(length) : std::nullopt);
    } else if (pointerInto(args.at(access.read), output_)) {
      throw Untraceable{"a kernel reading the output"};
    }
  }

  void refusePointerInto(const Expr& argument) {
    if (argument->kind == ExprKind::AddressOf &&
        (argument->buffer.get() == input_ || argument->buffer.get() == output_)) {
      throw Untraceable{"a call handed a pointer into the " +
                        std::string(argument->buffer.get() == input_ ? "input" : "output")};
    }
  }

  Value eval(const Expr& e) {
    switch (e->kind) {
      case ExprKind::IntImm:
        return e->intValue;
      case ExprKind::FloatImm:
      case ExprKind::ResourceHandle:
        return std::nullopt;
      case ExprKind::VarRef: {
        const auto it = vars_.find(e->var.get());
        return it == vars_.end() ? std::nullopt : it->second;
      }
      case ExprKind::Add:
        return both(e, [](std::int64_t a, std::int64_t b) { return a + b; });
      case ExprKind::Sub:
        return both(e, [](std::int64_t a, std::int64_t b) { return a - b; });
      case ExprKind::Mul:
        return both(e, [](std::int64_t a, std::int64_t b) { return a * b; });
      case ExprKind::Div:
      case ExprKind::Mod: {
        const Value a = eval(e->operands[0]);
        const Value b = eval(e->operands[1]);
        if (!a || !b || *b == 0) return std::nullopt;
        return e->kind == ExprKind::Div ? *a / *b : *a % *b;  // C's truncation
      }
      case ExprKind::Min:
        return both(e, [](std::int64_t a, std::int64_t b) { return std::min(a, b); });
      case ExprKind::Max:
        return both(e, [](std::int64_t a, std::int64_t b) { return std::max(a, b); });
      case ExprKind::Shl:
        return both(e,
                    [](std::int64_t a, std::int64_t b) { return b >= 0 && b < 63 ? a << b : 0; });
      case ExprKind::Shr:
        return both(e,
                    [](std::int64_t a, std::int64_t b) { return b >= 0 && b < 63 ? a >> b : 0; });
      case ExprKind::Lt:
        return both(e, [](std::int64_t a, std::int64_t b) -> std::int64_t { return a < b; });
      case ExprKind::Le:
        return both(e, [](std::int64_t a, std::int64_t b) -> std::int64_t { return a <= b; });
      case ExprKind::Gt:
        return both(e, [](std::int64_t a, std::int64_t b) -> std::int64_t { return a > b; });
      case ExprKind::Ge:
        return both(e, [](std::int64_t a, std::int64_t b) -> std::int64_t { return a >= b; });
      case ExprKind::Eq:
        return both(e, [](std::int64_t a, std::int64_t b) -> std::int64_t { return a == b; });
      case ExprKind::Ne:
        return both(e, [](std::int64_t a, std::int64_t b) -> std::int64_t { return a != b; });
      case ExprKind::And:
      case ExprKind::Or: {
        // C's && and ||: the right operand (and its loads) only when needed.
        const Value a = eval(e->operands[0]);
        const bool isAnd = e->kind == ExprKind::And;
        if (a && (*a != 0) != isAnd) return isAnd ? 0 : 1;
        const Value b = eval(e->operands[1]);
        if (!a || !b) return std::nullopt;
        return static_cast<std::int64_t>(isAnd ? (*a != 0 && *b != 0) : (*a != 0 || *b != 0));
      }
      case ExprKind::Not: {
        const Value a = eval(e->operands[0]);
        return a ? Value(*a == 0) : std::nullopt;
      }
      case ExprKind::Select: {
        const Value condition = eval(e->operands[0]);
        if (condition) return eval(e->operands[*condition != 0 ? 1 : 2]);
        // Either side may run: both sides' loads count.
        eval(e->operands[1]);
        eval(e->operands[2]);
        return std::nullopt;
      }
      case ExprKind::Cast: {
        const Value a = eval(e->operands[0]);
        if (!a || isFloat(e->type)) return std::nullopt;
        switch (e->type) {
          case ScalarType::Int8:
            return static_cast<std::int8_t>(*a);
          case ScalarType::UInt8:
            return static_cast<std::uint8_t>(*a);
          case ScalarType::Int16:
            return static_cast<std::int16_t>(*a);
          case ScalarType::Int32:
            return static_cast<std::int32_t>(*a);
          case ScalarType::Bool:
            return *a != 0;
          default:
            return a;
        }
      }
      case ExprKind::Load: {
        const Value index = eval(e->operands[0]);
        const BufferNode* buffer = e->buffer.get();
        if (buffer == input_) {
          if (!index) throw Untraceable{"a load from the input at an index from the data"};
          read(*index);
        }
        if (index && buffer->scope == BufferScope::Constant)
          return constantElement(*buffer, *index);
        return std::nullopt;
      }
      case ExprKind::Call:
        for (const KernelAccess& access : kKernelAccesses) {
          if (e->callee == access.name) {
            kernelCall(e, access);
            return std::nullopt;
          }
        }
        for (const Expr& argument : e->operands) {
          refusePointerInto(argument);
          eval(argument);
        }
        return std::nullopt;
      case ExprKind::AddressOf:
        if (!e->operands.empty()) eval(e->operands[0]);
        return std::nullopt;
    }
    return std::nullopt;
  }

  const BufferNode* input_;
  const BufferNode* output_;
  std::int64_t inputBytes_;
  std::int64_t outputBytes_;
  std::int64_t limit_;
  std::unordered_map<const VarNode*, Value> vars_;
  std::int64_t writeBegin_ = std::numeric_limits<std::int64_t>::max();
  std::int64_t writeEnd_ = std::numeric_limits<std::int64_t>::min();
  std::int64_t lag_ = 0;
  std::int64_t lead_ = 0;
  bool leadKnown_ = true;
  std::int64_t events_ = 0;
};

}  // namespace

OutputOverlap traceOutputOverlap(const PrimFunc& f, std::size_t input, std::size_t output,
                                 std::int64_t eventLimit) {
  OutputOverlap result;
  if (input >= f.params.size() || output >= f.params.size() || input == output) {
    result.why = "no such input and output";
    return result;
  }
  Tracer tracer(f.params[input].get(), f.params[output].get(), eventLimit);
  try {
    tracer.run(f.body);
  } catch (const Untraceable& stop) {
    result.why = stop.why;
    result.events = tracer.events();
    return result;
  }
  result.known = true;
  result.lagBytes = tracer.lag();
  result.leadBytes = tracer.lead();
  result.events = tracer.events();
  return result;
}

}  // namespace loupe::tir
