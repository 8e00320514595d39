// `xqlab spsa`: simultaneous perturbation stochastic approximation as
// fishtest runs it, over the engine's tunable parameters.
//
// theta starts at the defaults (real-valued). Iteration k (1-based) of N:
//   c_k = c / k^gamma,  a_k = a / (A + k)^alpha,  gamma = 0.101, alpha = 0.602,
//   A = 0.1 N;  c = c_end N^gamma,  a = a_end (A + N)^alpha,  a_end = r_end c_end^2
// (so that c_k and a_k / c_k^2 reach c_end and r_end at the last iteration);
// every parameter is perturbed by +-c_k at random (delta); the engines
// round(theta + c_k delta) and round(theta - c_k delta) (clipped to the
// ranges) play `pairs` pairs of games, colours reversed in each pair; with
// `result` = the first engine's wins minus its losses,
//   theta_i += a_k / c_k * result * delta_i   (clipped to the range).
// c_end is a fraction (`c_end`) of each parameter's range, at least 1;
// r_end is fishtest's default 0.002. The tuned vector is round(theta).
// A checkpoint after every iteration; `resume` continues from it and ends
// with what an uninterrupted run of the same seed ends with (fixed depth).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "lab/common/json.h"
#include "lab/games/tuning.h"

namespace xq::lab::games {

struct SpsaConfig {
  TuningSetup setup;
  int iterations = 20;  // N
  int pairs = 2;        // game pairs per iteration
  double c_end = 0.05;  // fraction of each parameter's range
  double r_end = 0.002;
  double alpha = 0.602, gamma = 0.101;
  std::uint64_t seed = 1;
};

struct SpsaStep {
  int k = 0;
  double c_k = 0, a_k = 0;  // of the first parameter (each has its own scale)
  int result = 0;           // wins - losses of theta + c_k delta
  int forfeits = 0;
  std::vector<double> theta;  // after the step
};

struct SpsaState {
  int iteration = 0;  // iterations done
  std::vector<double> theta;
  std::vector<SpsaStep> history;
  double seconds = 0, cpu_seconds = 0;
  bool interrupted = false;
};

SpsaState spsa_start(const SpsaConfig& c);
// The perturbation scale and step of parameter i at iteration k.
double spsa_c(const SpsaConfig& c, std::size_t i, int k);
double spsa_a(const SpsaConfig& c, std::size_t i, int k);
std::vector<int> spsa_values(const SpsaConfig& c, const std::vector<double>& theta);

SpsaState spsa(const SpsaConfig& c, SpsaState state,
               const std::function<void(const std::string&)>& progress,
               const std::function<void(const SpsaState&)>& checkpoint,
               const std::atomic<bool>* stop);

Json spsa_json(const SpsaConfig& c, const SpsaState& s);
// Throws std::invalid_argument (one line) when the document is not an spsa
// checkpoint of this configuration.
SpsaState spsa_state_from_json(const SpsaConfig& c, const Json& j);

}  // namespace xq::lab::games
