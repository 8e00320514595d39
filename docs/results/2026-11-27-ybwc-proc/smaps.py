import subprocess, sys, os, time
backend=sys.argv[1]
p=subprocess.Popen(['/work/main/build-dev/xqlab','engine','--backend',backend,'--threads','2'],stdin=subprocess.PIPE,stdout=subprocess.PIPE,text=True)
def send(s): p.stdin.write(s+'\n'); p.stdin.flush()
send('uci'); 
while 'uciok' not in p.stdout.readline(): pass
send('position startpos'); send('go depth 10')
while True:
    l=p.stdout.readline()
    if l.startswith('bestmove'): break
def roll(pid):
    out=[]
    for l in open(f'/proc/{pid}/smaps_rollup'):
        if l.split(':')[0] in ('Rss','Pss','Shared_Clean','Shared_Dirty','Private_Clean','Private_Dirty'): out.append(l.rstrip())
    return out
kids=[int(x) for x in open(f'/proc/{p.pid}/task/{p.pid}/children').read().split()]
print('== engine (parent, thread 0\'s search)'); print('\n'.join(roll(p.pid)))
for k in kids:
    print('== helper process'); print('\n'.join(roll(k)))
send('quit'); p.wait(timeout=10)
