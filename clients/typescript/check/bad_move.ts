// A move body without its fields: tsc --strict must refuse it (the test names this line).
import type { paths } from "./api";

type MoveBody =
  paths["/api/v1/games/{game_id}/moves"]["post"]["requestBody"]["content"]["application/json"];

export const place: MoveBody = { type: "place", expected_move_number: 0 }; // no tiles
