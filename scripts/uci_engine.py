"""A UCI engine on a pipe, set up for Xiangqi with one thread (so that
`go nodes N` repeats): what the suite-making scripts talk to
Fairy-Stockfish through."""
import re
import subprocess
import sys


class UciEngine:
    def __init__(self, path):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.send("uci"); self.read_until("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("setoption name Threads value 1")
        self.send("isready"); self.read_until("readyok")

    def send(self, cmd):
        self.proc.stdin.write(cmd + "\n")
        self.proc.stdin.flush()

    def read_until(self, prefix):
        """The engine's lines up to and including the first that starts with prefix."""
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                sys.exit("engine exited")
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines

    def go_nodes(self, position, nodes):
        """Searches `position` (a UCI position command's arguments) for
        `nodes` nodes: (best move, score in cp or None when no line gave
        one; a mate score counts as 10**6)."""
        self.send(f"position {position}")
        self.send(f"go nodes {nodes}")
        lines = self.read_until("bestmove")
        score = None
        for l in lines:
            m = re.search(r"score cp (-?\d+)", l)
            if m:
                score = int(m.group(1))
            elif "score mate" in l:
                score = 10 ** 6
        return lines[-1].split()[1], score

    def fen(self, position):
        """The FEN of `position` as the engine prints it."""
        self.send(f"position {position}")
        self.send("d")
        fen = self.read_until("Fen:")[-1][4:].strip()
        self.send("isready"); self.read_until("readyok")
        return fen
