// An external UCI engine as a parallel backend, so that the time-to-depth lab
// (`xqlab lab --engine uci:COMMAND`) measures a production engine beside
// xqlab's own backends, on the same suite, interleaved with them, as Laskos
// measured commercial engines' time to depth.
//
// The engine is started (and given Threads and Hash from the configuration)
// when the backend is made, which the lab does before every search, outside
// the timed part: every search starts from a fresh process and table. A
// search is "position fen ... / go depth D" (or "go movetime T"); the result
// carries the best move, the last reported score (the engine's own scale,
// side to move's view), the last reported depth and nodes (0 when the
// engine reports none: the lab says so) and the CPU time of the engine's
// process group (SearchStats::helper_cpu_seconds). stop() and the options'
// stop_signal end a search within about 20 ms plus the engine's reply.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "lab/common/engines.h"
#include "parallel/backend.h"

namespace xq::lab::games {

// Starts the engine of `spec` ("uci:COMMAND[,KEY=VALUE...]", as the match's
// players take it) with Threads = c.threads and Hash = c.hash_mib. The key
// depth=N (the lab's, not sent to the engine) searches it to N of its own
// plies instead of the lab's --depth: an engine's depth is not xqlab's. Throws
// std::invalid_argument for a malformed spec, one that sets Threads or Hash
// itself, or an engine that cannot be started or does not answer the
// handshake. search() throws std::runtime_error (one line) when the engine
// crashes or sends a move that is not legal.
std::unique_ptr<Backend> make_external_backend(const std::string& spec, const BackendConfig& c);

}  // namespace xq::lab::games
