// The bot API's page (rendered by the server from its OpenAPI document): its words translated.
import { startI18n } from "./common.js";

await startI18n();
