#include "tir/lift_scratch.h"

#include <algorithm>

namespace loupe::tir {

namespace {

class ScratchLifter {
 public:
  explicit ScratchLifter(std::int64_t minBytes) : minBytes_(minBytes) {}

  // `depth`: bytes of the scratch region taken by the enclosing allocations.
  Stmt rewrite(const Stmt& s, std::int64_t depth) {
    if (!s) return s;
    auto copy = std::make_shared<StmtNode>(*s);
    if (s->kind == StmtKind::Allocate && bufferBytes(s->buffer) >= minBytes_) {
      const std::int64_t align = std::max(kScratchAlignment, s->buffer->alignment);
      const std::int64_t offset = (depth + align - 1) / align * align;
      copy->scratchOffset = offset;
      highWater_ = std::max(highWater_, offset + bufferBytes(s->buffer));
      copy->body = rewrite(s->body, offset + bufferBytes(s->buffer));
      return copy;
    }
    for (Stmt& child : copy->seq) child = rewrite(child, depth);
    copy->body = rewrite(copy->body, depth);
    copy->otherwise = rewrite(copy->otherwise, depth);
    return copy;
  }

  std::int64_t highWater() const { return highWater_; }

 private:
  std::int64_t minBytes_;
  std::int64_t highWater_ = 0;
};

}  // namespace

std::int64_t bufferBytes(const Buffer& buffer) {
  return buffer->elementCount() * static_cast<std::int64_t>(scalarTypeBytes(buffer->type));
}

void liftScratchBuffers(PrimFunc& func, std::int64_t minBytes) {
  ScratchLifter lifter(minBytes);
  func.body = lifter.rewrite(func.body, 0);
  func.scratchBytes = lifter.highWater();
}

}  // namespace loupe::tir
