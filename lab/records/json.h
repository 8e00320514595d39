// The JSON form of every result the laboratory reports (nlohmann::json, keys
// in insertion order): one to_json per result type, found by argument-
// dependent lookup, so `Json j = result;` works for each. Every command's
// --json output is built from these.
#pragma once

#include <string_view>

#include <nlohmann/json.hpp>

#include "hashing/stress.h"
#include "lab/timing/ablation.h"
#include "parallel/catalog.h"
#include "board/perft_divide.h"
#include "lab/timing/summary.h"
#include "parallel/backend.h"
#include "search/result.h"

namespace xq {

using Json = nlohmann::ordered_json;

void to_json(Json& j, const SearchStats& s);
// The result with its statistics flattened in. A search that completed no
// iteration has "depth": 0 and null "score", "mate" and "bestmove".
void to_json(Json& j, const SearchResult& r);
void to_json(Json& j, const StressResult& r);

}  // namespace xq

namespace xq::lab {

// True when the search finished no iteration, so its move and score are not
// the result of a search. The one place that decides it.
bool no_iteration_completed(const SearchResult& r);

// {"backend", "hash", "threads", "hash_mb", "params": {name: value}}.
Json backend_json(std::string_view backend, const BackendConfig& c);

void to_json(Json& j, const PerftResult& r);
void to_json(Json& j, const LabSummary& r);
void to_json(Json& j, const AblationCell& c);
void to_json(Json& j, const AblationRow& r);
void to_json(Json& j, const Catalog& c);

// One line of text; invalid UTF-8 is replaced rather than thrown on.
std::string dump_line(const Json& j);

}  // namespace xq::lab
