// xqlab engine (alias: xqlab uci): the engine for GUIs and match tools on
// stdin/stdout. The first command chooses the protocol (uci, ucci, xboard;
// engine/protocol.h). The BACKEND options set the initial engine options,
// which the protocol's own option commands may then change.
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/options.h"
#include "engine/protocol.h"

namespace xq::cli {
namespace {

struct EngineArgs {
  BackendArgs backend;
  std::string profile = "thesis";
  std::string tunables;  // a parameters file (search/tunables.h), "" for none
};

EngineOptions initial_options(const EngineArgs& e) {
  const BackendArgs& a = e.backend;
  EngineOptions o;
  o.set("Profile", e.profile);
  o.set("Backend", a.backend);
  o.set("Threads", std::to_string(a.threads));
  o.set("Hash", std::to_string(a.hash_mb));
  if (!a.hash.empty()) o.set("HashScheme", a.hash);
  for (const std::string& p : a.params) {
    const std::size_t eq = p.find('=');
    o.set(p.substr(0, eq), p.substr(eq + 1));
  }
  if (!e.tunables.empty()) {
    const Tunables t = load_tunables(e.tunables);
    for (const TunableParam& p : tunable_params()) o.set(p.name, std::to_string(p.get(t)));
  }
  return o;
}

}  // namespace

Command add_engine(CLI::App& root) {
  auto args = std::make_shared<EngineArgs>();
  CLI::App* app = root.add_subcommand(
      "engine", "play over UCI, UCCI or xboard on stdin/stdout (the first command decides)");
  app->alias("uci");
  add_backend_options(app, args->backend);
  add_profile_option(app, args->profile);
  app->add_option("--tunables", args->tunables,
                  "a parameters file: 'NAME VALUE' lines of tunable parameters (xqlab list)");
  return {app, [args] {
            std::ios::sync_with_stdio(false);
            return run_protocol(std::cin, std::cout, initial_options(*args));
          }};
}

}  // namespace xq::cli
