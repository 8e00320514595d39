// The MPI wire: when xqlab was built with Open MPI (CMake XQLAB_MPI) and is
// started by mpirun, every process is a rank of one world. Rank 0 runs the
// command (lab, search, engine, match) and alone prints; the other ranks
// serve: a distributed backend that rank 0 builds with wire=mpi sends them
// its configuration, they serve its searches until it is destroyed, and
// when rank 0 leaves they leave too. cli/main.cpp holds the session.
#pragma once

#include "parallel/distributed/transport.h"

namespace xq::dist {

// Whether this binary can run ranks over MPI.
bool mpi_built();

// This process's end of the MPI world, or nullptr when it does not run under
// mpirun (or the build has no MPI).
Transport* mpi_world();

class MpiSession {
 public:
  // Starts MPI when the build has it and mpirun (or mpiexec) started this
  // process; otherwise does nothing. Throws std::runtime_error when MPI
  // cannot give the thread level the wire needs.
  MpiSession(int& argc, char**& argv);
  // Rank 0: tells the other ranks to leave. Every rank: waits for its
  // sends and finalises MPI.
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;

  // Whether this process is a rank other than 0 (it serves, and prints nothing).
  bool serving() const;
  // Serves backends until rank 0 leaves; returns the exit status.
  int serve();
};

// Claims the MPI ranks for one backend (they serve one at a time); throws
// std::invalid_argument when another backend holds them.
void claim_mpi_ranks(const char* backend);
void release_mpi_ranks();

}  // namespace xq::dist
