/** Ids of webhook endpoints (`we_…`) and deliveries (`msg_…`, the `webhook-id` header). Not secrets. */
import { randomBase62 } from "../../common/auth/checksum";

export const newEndpointId = () => `we_${randomBase62(20)}`;
export const newDeliveryId = () => `msg_${randomBase62(24)}`;
