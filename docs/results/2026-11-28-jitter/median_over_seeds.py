import json, sys, statistics as st
# merge halves per seed, then per backend median [min,max] over seeds of S and SO, against the real doc
real=json.load(open('/work/main/docs/results/2026-11-28-sim-idle/real-d10-2t.json'))
seeds=[int(x) for x in sys.argv[1:]]
docs=[]
for sd in seeds:
    a=json.load(open(f'/tmp/jt/sim-d10-seed{sd}-a.json')); b=json.load(open(f'/tmp/jt/sim-d10-seed{sd}-b.json'))
    m=dict(a); m['results']=a['results']+[r for r in b['results'] if r['backend']!='serial']
    m['meta']=dict(a['meta']); m['meta']['command']=a['meta']['command']+' ; '+b['meta']['command']+' (merged: results of each, serial once)'
    json.dump(m,open(f'/tmp/jt/sim-d10-seed{sd}.json','w'),indent=1)
    docs.append(m)
def get(d,b): return [x for x in d['results'] if x['backend']==b][0]
print('backend         S real  S sim med [min, max] over seeds %s   err    SO real SO sim med   dSO' % seeds)
ok_s=ok_so=0
for b in ['ybwc','dts','abdada','abdada-simple','lazysmp','pvsplit','jamboree']:
    R=get(real,b); S=[get(d,b)['speedup'] for d in docs]; SO=[get(d,b)['search_overhead'] for d in docs]
    ms=st.median(S); mso=st.median(SO); err=ms/R['speedup']-1; dso=mso-R['search_overhead']
    ok_s+=abs(err)<=0.05; ok_so+=abs(dso)<=0.03
    print('%-14s %6.3f  %6.3f [%6.3f, %6.3f]  %+6.1f%%  %6.3f  %6.3f  %+6.3f' % (b, R['speedup'], ms, min(S), max(S), 100*err, R['search_overhead'], mso, dso))
print('S within 5 %%: %d of 7; SO within 0.03: %d of 7' % (ok_s, ok_so))
