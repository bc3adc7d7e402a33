import fs from 'node:fs';

/** Linux's USER_HZ: /proc reports CPU time in these ticks (100 on every mainstream build). */
const TICKS_PER_SECOND = 100;

/**
 * CPU time (user + system) a process has used so far, in microseconds; null where /proc is not
 * there. The server's own CPU per request is steadier than its throughput on a shared machine: a
 * neighbour's load slows the requests down but does not add to what each one costs.
 */
export function processCpuMicros(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may hold spaces: state is the first, utime the 12th, stime the 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
