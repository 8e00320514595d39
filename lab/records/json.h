// The JSON form of the library's results (search, hash stress, perft, a
// backend's configuration, the catalog of what can run): one to_json per
// type, found by argument-dependent lookup, so `Json j = result;` works for
// each. The commands' --json output and the lab document are built from
// these; the report never needs them (it reads the documents).
#pragma once

#include <string_view>

#include "board/perft_divide.h"
#include "hashing/stress.h"
#include "lab/common/json.h"
#include "parallel/backend.h"
#include "parallel/catalog.h"
#include "search/result.h"

namespace xq {

void to_json(Json& j, const SearchStats& s);
// The result with its statistics flattened in. A search that completed no
// iteration has "depth": 0 and null "score", "mate" and "bestmove".
void to_json(Json& j, const SearchResult& r);
void to_json(Json& j, const StressResult& r);
void to_json(Json& j, const PerftResult& r);
void to_json(Json& j, const Catalog& c);

}  // namespace xq

namespace xq::lab::records {

// True when the search finished no iteration, so its move and score are not
// the result of a search. The one place that decides it.
bool no_iteration_completed(const SearchResult& r);

// {"backend", "hash", "threads", "hash_mb", "params": {name: value}}.
Json backend_json(std::string_view backend, const BackendConfig& c);

}  // namespace xq::lab::records
