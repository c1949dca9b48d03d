// The bytes of a constant (a tensor's weights, a TIR function's table), held
// once and shared by every copy: a compilation copies its graph for each
// pass stage, for the compiled model and into the lowered functions, and a
// large model's weights must not be copied each time. The bytes never change
// once made; "changing" a constant gives it new bytes, which leaves every
// other holder of the old ones as it was.
//
// Reading looks like reading a std::vector<std::uint8_t> (size, data,
// iteration, indexing, and a const std::vector& where a function asks for
// one), so code that reads constants does not care that they are shared.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <vector>

namespace loupe::ir {

class ConstantBytes {
 public:
  ConstantBytes() = default;
  // Takes the bytes (no copy when moved in).
  ConstantBytes(std::vector<std::uint8_t> bytes)  // NOLINT(google-explicit-constructor)
      : bytes_(bytes.empty()
                   ? nullptr
                   : std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes))) {}
  ConstantBytes(std::initializer_list<std::uint8_t> bytes)
      : ConstantBytes(std::vector<std::uint8_t>(bytes)) {}
  template <std::input_iterator Iterator>
  ConstantBytes(Iterator first, Iterator last)
      : ConstantBytes(std::vector<std::uint8_t>(first, last)) {}

  // Replaces the bytes (the old ones stay with whoever else holds them).
  template <std::input_iterator Iterator>
  void assign(Iterator first, Iterator last) {
    *this = ConstantBytes(first, last);
  }
  void assign(std::size_t count, std::uint8_t value) {
    *this = ConstantBytes(std::vector<std::uint8_t>(count, value));
  }
  void clear() { bytes_.reset(); }

  const std::vector<std::uint8_t>& bytes() const { return bytes_ ? *bytes_ : noBytes(); }
  // Where a function takes the bytes as a vector.
  operator const std::vector<std::uint8_t>&() const {  // NOLINT(google-explicit-constructor)
    return bytes();
  }

  const std::uint8_t* data() const { return bytes().data(); }
  std::size_t size() const { return bytes_ ? bytes_->size() : 0; }
  bool empty() const { return size() == 0; }
  const std::uint8_t* begin() const { return data(); }
  const std::uint8_t* end() const { return data() + size(); }
  std::uint8_t operator[](std::size_t index) const { return (*bytes_)[index]; }
  std::uint8_t front() const { return bytes_->front(); }
  std::uint8_t back() const { return bytes_->back(); }

  // Whether both hold the very same bytes (not merely equal ones): what a
  // copy of a graph or a lowered function's constant has of its source.
  bool sharesBytesWith(const ConstantBytes& other) const {
    return bytes_ != nullptr && bytes_ == other.bytes_;
  }

  friend bool operator==(const ConstantBytes& a, const ConstantBytes& b) {
    return a.bytes_ == b.bytes_ || std::ranges::equal(a, b);
  }
  friend bool operator==(const ConstantBytes& a, const std::vector<std::uint8_t>& b) {
    return std::ranges::equal(a, b);
  }

 private:
  static const std::vector<std::uint8_t>& noBytes() {
    static const std::vector<std::uint8_t> none;
    return none;
  }

  std::shared_ptr<const std::vector<std::uint8_t>> bytes_;
};

}  // namespace loupe::ir
