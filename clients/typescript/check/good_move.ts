// Move bodies as a TypeScript client writes them: each shape with its fields type-checks.
import type { paths } from "./api";

type MoveBody =
  paths["/api/v1/games/{game_id}/moves"]["post"]["requestBody"]["content"]["application/json"];

export const place: MoveBody = {
  type: "place",
  expected_move_number: 0,
  tiles: [
    { square: "g7", digit: 5 },
    { square: "h7", wild: true, digit: 5 },
  ],
};
export const pass: MoveBody = { type: "pass", expected_move_number: 3 };
export const swap: MoveBody = { type: "swap", expected_move_number: 4, tiles: ["3", "*"] };
export const play: MoveBody = {
  type: "play",
  expected_move_number: 5,
  cards: ["8C"],
  suit: "S",
};
export const draw: MoveBody = { type: "draw", expected_move_number: 6 };

// A new game: the seats' ways ({"you": true}, {"computer": level}), nothing it may leave out.
type NewGameBody = paths["/api/v1/games"]["post"]["requestBody"]["content"]["application/json"];

export const newGame: NewGameBody = {
  kind: "crazy10s",
  seats: [{ you: true }, { computer: "beginner" }],
};
