import { execFileSync, fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { VoiceSettings } from '../../src/common/voice';
import type { BenchUser, ServerReply, ServerRequest, ServerUsage } from './protocol';

/** A request without its id, which ServerProcess adds. */
type RequestBody = ServerRequest extends infer R ? (R extends unknown ? Omit<R, 'id'> : never) : never;

const STOP_GRACE_MS = 10_000;

/** A server under test in a child process of its own, so its CPU and memory are its own. */
export class ServerProcess {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (reply: ServerReply) => void; reject: (error: Error) => void }>();
  private exited = false;
  private stopping = false;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    child.on('message', (reply: ServerReply) => {
      if (!('id' in reply)) return;
      const waiter = this.pending.get(reply.id);
      this.pending.delete(reply.id);
      if (reply.type === 'failed') waiter?.reject(new Error(`${name}: ${reply.message}`));
      else waiter?.resolve(reply);
    });
    child.on('exit', (code, signal) => {
      this.exited = true;
      const error = new Error(`${name} exited (code ${code}, signal ${signal})`);
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
      if (!this.stopping) this.onCrash?.(error);
    });
  }

  /** Called when the child dies without being asked to stop. */
  onCrash: ((error: Error) => void) | null = null;

  get pid(): number {
    return this.child.pid ?? 0;
  }

  /** Forks `script` (a module of this folder) under tsx with `args`; resolves once it listens. */
  static start(name: string, script: string, { args = [], nodeArgs = [] }: { args?: string[]; nodeArgs?: string[] } = {}): Promise<ServerProcess> {
    const child = fork(fileURLToPath(new URL(script, import.meta.url)), args, {
      execArgv: ['--import', 'tsx', '--expose-gc', ...nodeArgs],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return new Promise((resolve, reject) => {
      const early = (code: number | null) => reject(new Error(`${name} exited before it was ready (code ${code})`));
      child.once('exit', early);
      child.once('error', reject);
      child.on('message', function ready(message: ServerReply) {
        if (message.type !== 'ready') return;
        child.off('message', ready);
        child.off('exit', early);
        resolve(new ServerProcess(name, child, message.port));
      });
    });
  }

  private request<T extends ServerReply['type']>(body: RequestBody, expect: T): Promise<Extract<ServerReply, { type: T }>> {
    if (this.exited) return Promise.reject(new Error(`${this.name} is not running`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: (reply) => (reply.type === expect ? resolve(reply as Extract<ServerReply, { type: T }>) : reject(new Error(`${this.name}: unexpected ${reply.type}`))),
        reject,
      });
      this.child.send({ ...body, id } as ServerRequest);
    });
  }

  async usage(collectGarbage = false): Promise<ServerUsage> {
    return (await this.request({ type: 'usage', collectGarbage }, 'usage')).usage;
  }

  async createUsers(count: number, voice: VoiceSettings | null = null, premium = false): Promise<BenchUser[]> {
    return (await this.request({ type: 'create-users', count, voice, premium }, 'users')).users;
  }

  /** Asks the child to close and exit (so a CPU profile gets written); kills it if it does not. */
  async stop(): Promise<void> {
    if (this.exited) return;
    this.stopping = true;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    const killer = setTimeout(() => this.child.kill('SIGKILL'), STOP_GRACE_MS);
    await this.request({ type: 'stop' }, 'stopped').catch(() => this.child.kill('SIGKILL'));
    await exited;
    clearTimeout(killer);
  }

  kill() {
    this.stopping = true;
    if (!this.exited) this.child.kill('SIGKILL');
  }
}

/** Pins a process and all its threads to one CPU (Linux, taskset); false when it cannot. */
export function pinToCpu(pid: number, cpu: number): boolean {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
