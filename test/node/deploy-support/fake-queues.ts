/**
 * Queues in the fake Cloudflare API: list (with wrangler's `name` filter), create, and the worker
 * consumers wrangler registers at deploy (POST, or PUT when the worker already consumes the queue).
 */
import { expectDefined } from "../../../src/common/expect";
import { fail, ok, page, type Reply, type Route } from "./fake-reply";

interface Consumer {
  consumer_id: string;
  type: "worker";
  script: string;
  settings: unknown;
}
interface Queue {
  queue_id: string;
  queue_name: string;
  created_on: string;
  consumers: Consumer[];
}

export class FakeQueues {
  readonly byId = new Map<string, Queue>();

  routes(account: string): Route[] {
    return [
      {
        method: "GET",
        pattern: new RegExp(`${account}/queues$`),
        permission: "Queues: Read",
        handle: (_m, url) => this.list(url),
      },
      {
        method: "POST",
        pattern: new RegExp(`${account}/queues$`),
        permission: "Queues: Edit",
        handle: (_m, _u, request) => this.create(request),
      },
      {
        method: "POST",
        pattern: new RegExp(`${account}/queues/(\\w+)/consumers$`),
        permission: "Queues: Edit",
        handle: ([, id], _u, request) => this.consume(expectDefined(id, "a queue id"), undefined, request),
      },
      {
        method: "PUT",
        pattern: new RegExp(`${account}/queues/(\\w+)/consumers/(\\w+)$`),
        permission: "Queues: Edit",
        handle: ([, id, consumerId], _u, request) => this.consume(expectDefined(id, "a queue id"), consumerId, request),
      },
    ];
  }

  names(): string[] {
    return [...this.byId.values()].map((queue) => queue.queue_name);
  }

  private list(url: URL): Reply {
    const names = url.searchParams.getAll("name");
    const all = [...this.byId.values()].filter((queue) => names.length === 0 || names.includes(queue.queue_name));
    const perPage = Number(url.searchParams.get("per_page") ?? 100);
    const pageNumber = Number(url.searchParams.get("page") ?? 1);
    return ok(all.slice((pageNumber - 1) * perPage, pageNumber * perPage), page(pageNumber, perPage, all.length));
  }

  private async create(request: Request): Promise<Reply> {
    const { queue_name } = (await request.json()) as { queue_name?: string };
    if (!queue_name || !/^[a-z0-9-]{1,63}$/.test(queue_name)) return fail(400, 11003, "queue_name is not valid");
    if (this.names().includes(queue_name)) return fail(409, 11009, "A queue with this name already exists");
    const queue: Queue = {
      queue_id: crypto.randomUUID().replaceAll("-", ""),
      queue_name,
      created_on: new Date().toISOString(),
      consumers: [],
    };
    this.byId.set(queue.queue_id, queue);
    return ok(queue);
  }

  private async consume(id: string, consumerId: string | undefined, request: Request): Promise<Reply> {
    const queue = this.byId.get(id);
    if (!queue) return fail(404, 11000, "Queue not found");
    const { script_name, settings } = (await request.json()) as { script_name: string; settings: unknown };
    const existing = queue.consumers.find((consumer) => consumer.consumer_id === consumerId);
    if (consumerId && !existing) return fail(404, 11001, "Consumer not found");
    const consumer: Consumer = existing ?? {
      consumer_id: crypto.randomUUID().replaceAll("-", ""),
      type: "worker",
      script: script_name,
      settings,
    };
    consumer.settings = settings;
    if (!existing) queue.consumers.push(consumer);
    return ok(consumer);
  }
}
