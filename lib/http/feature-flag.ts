/** A feature rolled out per environment: when it is off, its operations answer 404 feature_disabled. */
export type FeatureFlag = {
  isEnabled: () => boolean;
  /** The error message when it is off. */
  message: string;
  /** When feature_disabled happens, for the OpenAPI document. */
  documented: string;
};
