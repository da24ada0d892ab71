# Turns the output of measure_h100.sh into the rows of h100_counters.csv:
# one row per kernel launch, matched to (impl, level) through the runner's
# level lines (queue-to-bitmap and bitmap-to-queue conversions add a launch
# to their level; a level with grid 0 launched nothing).
import collections, csv, json, sys

short = {
    'smsp__inst_executed_op_global_ld.sum': 'ld', 'smsp__inst_executed_op_global_st.sum': 'st',
    'smsp__inst_executed_op_global_red.sum': 'red', 'l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum': 'ldsec',
    'l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum': 'stsec', 'lts__t_sectors_op_atom.sum': 'atomsec',
    'lts__t_sectors_op_red.sum': 'redsec', 'launch__grid_size': 'grid',
}
cols = ['ld', 'ldsec', 'st', 'stsec', 'atomsec', 'red', 'redsec', 'grid']
out = sys.argv[1]
print('graph,impl,level,kernel,' + ','.join(cols))
for g in ['fig2', 'rmat12', 'urmat12']:
    rows = list(csv.reader(l for l in open(f'{out}/{g}.ncu.csv') if l.startswith('"')))
    ix = {h: i for i, h in enumerate(rows[0])}
    launches = collections.OrderedDict()
    for r in rows[1:]:
        name = r[ix['Kernel Name']].split('(')[0].replace('void ', '').split('<')[0]
        m = r[ix['Metric Name']]
        if m in short:
            launches.setdefault((int(r[ix['ID']]), name), {})[short[m]] = r[ix['Metric Value']].replace(',', '')
    launches = list(launches.items())
    i = 0
    for d in (json.loads(l) for l in open(f'{out}/{g}.jsonl') if '"type":"level"' in l):
        for _ in range((2 if d['convert'] != '-' else 1) - (1 if d['grid'] == 0 else 0)):
            (_, kernel), m = launches[i]
            i += 1
            print(','.join([g, d['impl'], str(d['level']), kernel] + [m[c] for c in cols]))
    assert i == len(launches), (g, i, len(launches))
