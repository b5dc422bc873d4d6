import csv,collections,sys
want=["Duration","Memory Throughput","DRAM Throughput","Compute (SM) Throughput","Achieved Occupancy","Theoretical Occupancy","Registers Per Thread","Block Size","Grid Size","L1/TEX Hit Rate","L2 Hit Rate","Warp Cycles Per Issued Instruction","Executed Ipc Active","Branch Efficiency","Waves Per SM","Dynamic Shared Memory Per Block","Avg. Active Threads Per Warp"]
for f in sys.argv[1:]:
    rows=[r for r in csv.reader(open(f))]
    i0=[i for i,r in enumerate(rows) if r and r[0]=='ID'][0]
    h=rows[i0]; ix={k:i for i,k in enumerate(h)}
    K=collections.OrderedDict(); rules=collections.defaultdict(list)
    for r in rows[i0+1:]:
        if len(r)<15: continue
        key=(r[ix['ID']], r[ix['Kernel Name']])
        K.setdefault(key,{})[r[ix['Metric Name']]]=r[ix['Metric Value']]+' '+r[ix['Metric Unit']]
        if len(r)>17 and r[ix['Rule Description']] and r[ix['Rule Name']] not in [x[0] for x in rules[key]]:
            rules[key].append((r[ix['Rule Name']], r[ix['Rule Description']][:260], r[ix['Estimated Speedup']] if len(r)>19 else ''))
    print('==',f)
    for (kid,name),m in list(K.items())[:2]:
        n=name.split('<')[2].split(',')[0]
        print(' kernel',kid,n)
        print('    '+'; '.join(f"{w}={m[w].strip()}" for w in want if w in m))
        for rn,rd,sp in rules[(kid,name)][:6]: print('    rule',rn,'(',sp,'):',rd)
