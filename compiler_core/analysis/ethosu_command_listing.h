// The Ethos-U command stream of a Vela operator (ir::OpType::EthosU) for
// people: a summary of its NPU operations (kind, IFM -> OFM shapes, kernel,
// weight bytes, block), which `loupec info` shows, and a listing of every
// command word like a disassembler's (`loupec npu-stream`): word offset,
// the words in hex, the command's name and its fields by name, grouped by
// the NPU operation they set up. The operations are the C decoder's
// (frontend/ethosu_payload_reader.h); the words are split into named fields
// by the one register table (loupe/ethosu/ethosu_registers.h), never by
// C++ code of its own.
#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "frontend/ethosu_payload_reader.h"
#include "ir/graph.h"

namespace loupe::analysis {

// The decoded payload of an EthosU operator (its input 0). The graph must
// outlive the result. Throws frontend::EthosUPayloadError if malformed.
frontend::EthosUPayload ethosuPayloadOf(const ir::Graph& graph, const ir::Operator& op);

// One line per NPU operation (STOP left out), each starting with `indent`:
// "npu 3  CONV  49x10x1 -> 25x5x64  kernel 10x4 stride 2x2  weights 2,896 B  block 8x5x16".
std::string npuOperationsText(const frontend::EthosUPayload& payload, const std::string& indent);

// [{"index", "kind", "ifm": [h, w, c], "ifm2": [h, w, c] or null, "ofm",
//   "kernel": [h, w], "stride": [h, w], "dilation": [h, w], "weight_bytes",
//   "scale_bytes", "block": [h, w, c], "macs", "words": [first, end]}].
nlohmann::json npuOperationsJson(const frontend::EthosUPayload& payload);

// The whole listing: the payload's driver actions, then per command stream
// its words grouped by the operation they set up, under the operation's
// summary line: from the word after the previous operation's NPU_OP_* word
// to its own. Waits (and IRQ, PMU masks) set nothing up and head no group:
// their words are listed where they stand, in the group of the operation
// they precede, marked "(operation N)". Field values are signed where the
// register table says so (zero points, clip boundaries, the IFM2 scalar).
std::string commandListingText(const frontend::EthosUPayload& payload);

// {"accelerator", "config_word", "id_word", "payload_words", "streams": [{
//   "payload_word_offset", "words", "operations": [{...npuOperationsJson,
//   "commands": [{"offset", "words": ["0x..."], "command", "fields": [
//   {"name", "value", "enum"?}]}]}]}]}: one entry per operation, STOP
// included, grouped as in the text; a wait's entry has no commands and
// "listed_with": the index of the operation whose commands hold its word.
nlohmann::json commandListingJson(const frontend::EthosUPayload& payload);

}  // namespace loupe::analysis
