/**
 * Test helpers: a scripted model and an in-memory workspace.
 *
 * @module
 */
export { type MockModel, mockModel, type MockModelStep, type RecordedModelRequest } from "./src/testing/mock_model.ts";
