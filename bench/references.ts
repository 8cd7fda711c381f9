// The plan and order of a 10,000-object document with references (issue "references": no worse than
// 1.2× today's plan of the same document), in one process: today's plan (the document checked and
// read, the plan computed against a device without those objects, as a restore meets it) against
// the same followed by the reference order, run alternately; the ratio is the median of the pairs'.
// Also the time of the order and of the check before sending on their own. `npm run bench` records
// it as a row; `node dist/bench/references.js` prints it alone.
import { readDocument } from '../src/plan/document.js';
import { computePlan } from '../src/plan/plan.js';
import { checkNeeds, checkPlan, orderSteps, type TableReading } from '../src/plan/references/index.js';

const members = (...names: string[]) => names.map((name) => ({ name }));

/**
 * 100 VLAN interfaces, 5,000 addresses (one in five on an interface), 1,000 groups of five (one in
 * ten a group of groups, naming groups written after it), 3,000 policies and 900 routes naming
 * them: 10,000 objects, tables in the order an export writes them.
 */
export function referencesDocument(): { vdoms: Record<string, Record<string, unknown[]>> } {
  const vlan = (i: number) => `vlan${100 + (i % 100)}`;
  const address = (i: number) => `net-${i % 5000}`;
  const group = (i: number) => `grp-${i % 1000}`;
  return {
    vdoms: {
      root: {
        'firewall/address': Array.from({ length: 5000 }, (_, i) => ({
          name: address(i),
          subnet: `10.${i >> 8}.${i & 255}.0 255.255.255.0`,
          ...(i % 5 === 0 ? { 'associated-interface': vlan(i) } : {}),
        })),
        'firewall/addrgrp': Array.from({ length: 1000 }, (_, i) => ({
          name: group(i),
          member:
            i % 10 === 0 && i < 990
              ? members(group(i + 1), group(i + 2), address(i))
              : members(...[0, 1, 2, 3, 4].map((k) => address(i * 5 + k))),
        })),
        'firewall/policy': Array.from({ length: 3000 }, (_, i) => ({
          policyid: i + 1,
          name: `rule-${i + 1}`,
          srcintf: members(vlan(i)),
          dstintf: members('port1'),
          srcaddr: members(group(i)),
          dstaddr: members(address(i * 7)),
          service: members('ALL'),
          schedule: 'always',
          action: 'accept',
        })),
        'router/static': Array.from({ length: 900 }, (_, i) => ({
          'seq-num': i + 1,
          dst: `172.16.${i >> 8}.${i & 255} 255.255.255.255`,
          device: vlan(i),
          gateway: '10.0.0.1',
        })),
        'system/interface': Array.from({ length: 100 }, (_, i) => ({
          name: vlan(i),
          vdom: 'root',
          type: 'vlan',
          interface: 'port1',
          vlanid: 100 + i,
        })),
      },
    },
  };
}

/** Today's plan: the document checked and read, then planned against a device without its objects. */
function plan(document: unknown) {
  const { tables } = readDocument(document, 'bench');
  return computePlan(
    tables.map((desired) => ({ desired, actual: [] })),
    { prune: false },
  );
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

const time = (work: () => unknown) => {
  const started = process.hrtime.bigint();
  work();
  return Number(process.hrtime.bigint() - started) / 1e6;
};

export interface ReferencesRow {
  ratio: number;
  planMs: number;
  planAndOrderMs: number;
  orderMs: number;
  checkMs: number;
  steps: number;
}

/** `pairs` alternating runs of today's plan and of the plan and order, after two warm-up runs of each. */
export function measureReferences(pairs = 31): ReferencesRow {
  const document = referencesDocument();
  const today = () => plan(document);
  const ordered = () => orderSteps(plan(document).steps).steps;
  for (let i = 0; i < 2; i++) today(), ordered();
  const ratios: number[] = [];
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < pairs; i++) {
    // Alternate which runs first, so that neither always runs on a heap the other left.
    let a: number;
    let b: number;
    if (i % 2) [b, a] = [time(ordered), time(today)];
    else [a, b] = [time(today), time(ordered)];
    as.push(a);
    bs.push(b);
    ratios.push(b / a);
  }
  const { steps } = plan(document);
  const device: TableReading[] = [
    { vdom: 'root', table: 'system/interface', content: [{ name: 'port1' }, { name: 'port2' }] },
    { vdom: 'root', table: 'system/zone', content: [] },
    { vdom: 'root', table: 'system/sdwan', content: {} },
  ];
  const factory = { isFactory: (_table: string, key: unknown) => key === 'ALL' || key === 'always' || key === 'root' };
  const orderTimes = Array.from({ length: 7 }, () => time(() => orderSteps(steps)));
  const checkTimes = Array.from({ length: 7 }, () =>
    time(() => {
      checkNeeds(steps, factory);
      checkPlan(steps, device, factory);
    }),
  );
  return {
    ratio: median(ratios),
    planMs: median(as),
    planAndOrderMs: median(bs),
    orderMs: median(orderTimes),
    checkMs: median(checkTimes),
    steps: steps.length,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const row = measureReferences(Number(process.env.BENCH_RUNS ?? 31));
  process.stdout.write(
    `plan and order of a ${row.steps}-object document with references / today's plan: ${row.ratio.toFixed(2)}× ` +
      `(${row.planAndOrderMs.toFixed(0)} ms / ${row.planMs.toFixed(0)} ms); the order alone ${row.orderMs.toFixed(1)} ms, ` +
      `the check before sending ${row.checkMs.toFixed(1)} ms\n`,
  );
}
