/** The explorer's addresses: its pages, its stylesheet and its one script. */
import { EXPLORE_HOME_PATH } from "../dashboard/context";

export const EXPLORE_PATHS = {
  home: EXPLORE_HOME_PATH,
  profile: `${EXPLORE_HOME_PATH}/profiles/:id`,
  compare: `${EXPLORE_HOME_PATH}/compare`,
  changes: `${EXPLORE_HOME_PATH}/changes`,
  changedProfiles: `${EXPLORE_HOME_PATH}/changes/profiles`,
  styles: `${EXPLORE_HOME_PATH}/styles.css`,
  script: `${EXPLORE_HOME_PATH}/explore.js`,
} as const;

export const profilePagePath = (id: string) => `${EXPLORE_HOME_PATH}/profiles/${id}`;
