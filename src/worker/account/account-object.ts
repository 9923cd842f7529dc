/**
 * AccountObject, the class wrangler binds as ACCOUNTS: one Durable Object per account, holding the
 * account and its keys (auth's AccountCore) and, beside them in the same SQLite, the customer's
 * profile and orders. Auth knows nothing of customers or orders; they know nothing of auth's
 * tables: each part owns its own tables and logic and gets the object's storage as its handle, and
 * this class only joins them. Same class name and same tables as before the split, so deployed
 * objects keep their data with no migration (docs/storage.md "Customers and orders").
 *
 * Every method below is one synchronous step of the object (no await between a read and its write).
 */
import { AccountCore, NO_ACCOUNT } from "../auth/account-object";
import { accept, refuse, type Outcome } from "../auth/account-views";
import { CustomerStore, type CustomerRecord } from "../customers/customer-store";
import { patchProfile } from "../customers/profile-patch";
import type { CustomerFields, CustomerPatch } from "../customers/schemas";
import { OrderBook, type CreatedOrder, type NewOrder, type OrderFilter } from "../orders/order-book";
import type { OrderView } from "../orders/schemas";
import type { OrderAction } from "../orders/state-machine";

export class AccountObject extends AccountCore {
  #customer: CustomerStore;
  #orders: OrderBook;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    const livemode = env.KEY_MODE === "live";
    this.#customer = new CustomerStore(ctx.storage.sql, livemode);
    this.#orders = new OrderBook(ctx.storage, livemode);
  }

  /** The customer profile of this account (docs/orders.md), made from the account on first read. */
  async customer(): Promise<Outcome<CustomerRecord>> {
    const account = this.accountView();
    return account ? accept(this.#customer.read(account)) : refuse("account_not_found", NO_ACCOUNT);
  }

  /** Saves a whole, already checked profile if nobody changed it since `expectedVersion` (its ETag). */
  async replaceCustomer(fields: CustomerFields, expectedVersion: number): Promise<Outcome<CustomerRecord>> {
    const account = this.accountView();
    if (!account) return refuse("account_not_found", NO_ACCOUNT);
    if (!this.#customer.replace(fields, expectedVersion)) {
      return refuse("precondition_failed", "The profile changed since it was read; read it again and retry.");
    }
    return accept(this.#customer.read(account));
  }

  /** Applies a merge patch to the latest profile, If-Match checked, in one synchronous step (profile-patch.ts). */
  async patchCustomer(patch: CustomerPatch, ifMatch: string | undefined): Promise<Outcome<CustomerRecord>> {
    const account = this.accountView();
    return account ? patchProfile(this.#customer, account, patch, ifMatch) : refuse("account_not_found", NO_ACCOUNT);
  }

  /** Idempotent order creation: no await between the key lookup and the insert (order-book.ts). */
  async createOrder(input: NewOrder): Promise<Outcome<CreatedOrder>> {
    const account = this.accountView();
    if (!account) return refuse("account_not_found", NO_ACCOUNT);
    return this.#orders.create(input, this.#customer.read(account).customer.shipping_address);
  }

  async orders(filter: OrderFilter): Promise<Outcome<{ data: OrderView[]; has_more: boolean }>> {
    return this.#orders.list(filter);
  }

  async order(id: string): Promise<Outcome<OrderView>> {
    return this.#orders.order(id);
  }

  async moveOrder(id: string, action: OrderAction): Promise<Outcome<OrderView>> {
    return this.#orders.move(id, action);
  }
}
