/**
 * PATCH /v2/customer decided inside the account's Durable Object, in one synchronous step: read
 * the profile, check If-Match (RFC 9110 §13.1.1), merge the patch (RFC 7396), check the whole
 * result, save. With no await between the read and the write, concurrent patches apply one after
 * the other, each to the profile the previous one saved; 412 comes only from a tag the client sent.
 */
import { accept, refuse, type Outcome } from "../auth/account-views";
import { ifMatchFailedDetail, ifMatchHolds } from "../catalog/conditional";
import { validationFindings } from "../http/validation-problem";
import type { CustomerRecord, CustomerStore, Owner } from "./customer-store";
import { mergePatch } from "./merge-patch";
import { CustomerFields, type CustomerPatch, type CustomerView } from "./schemas";

export const etagOf = (record: CustomerRecord) => `"v${record.version}"`;

export function patchProfile(
  store: CustomerStore,
  owner: Owner,
  patch: CustomerPatch,
  ifMatch: string | undefined,
): Outcome<CustomerRecord> {
  const current = store.read(owner);
  if (!ifMatchHolds(ifMatch, etagOf(current)))
    return refuse("precondition_failed", ifMatchFailedDetail(etagOf(current)));
  const checked = CustomerFields.safeParse(mergePatch(fieldsOf(current.customer), patch));
  if (!checked.success) {
    const { detail, errors } = validationFindings(checked.error, "json");
    return refuse("bad_request", detail, { errors });
  }
  // Still at current.version: nothing else ran in this object since the read.
  store.replace(checked.data, current.version);
  return accept(store.read(owner));
}

function fieldsOf(customer: CustomerView): CustomerFields {
  const { name, email, phone, shipping_address, preferences } = customer;
  return { name, email, phone, shipping_address, preferences };
}
