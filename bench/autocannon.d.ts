// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface TAutocannonOptions {
    url: string;
    connections?: number;
    duration?: number;
    headers?: Record<string, string>;
  }
  interface THistogram {
    average: number;
    p50: number;
    p99: number;
    max: number;
  }
  export interface TAutocannonResult {
    requests: THistogram & { total: number };
    latency: THistogram;
    errors: number;
    timeouts: number;
    non2xx: number;
    '2xx': number;
  }
  export default function autocannon(options: TAutocannonOptions): Promise<TAutocannonResult>;
}
