import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import {
  errorResponse,
  idParams,
  loginDetails,
  successResponse,
  validationErrorResponse,
} from '@portal/shared';
import type { CredentialPair, Permission } from '@portal/shared';
import type { AppDeps } from '../../app-deps.js';
import type { Database } from '../../db/client.js';
import { actorOf } from '../../plugins/auth.js';
import type { Actor } from '../../plugins/policy.js';
import { loginAddress } from './address.js';
import { refusals } from '../../plugins/refusals.js';

type Schema = z.ZodType;
type Responses = Readonly<Record<number, Schema>>;

/** What a kind of staff account does; the routes below only call it (ADR 047). */
export interface AccountService<Query, Body, UpdateBody, Item, List> {
  list(db: Database, query: Query): Promise<List>;
  get(db: Database, id: number): Promise<Item>;
  create(db: Database, actor: Actor, body: Body): Promise<Item>;
  update(db: Database, actor: Actor, id: number, body: UpdateBody): Promise<Item>;
  remove(db: Database, actor: Actor, id: number): Promise<void>;
  restore(db: Database, actor: Actor, id: number): Promise<void>;
  /** Sets a new generated password and returns it once, to be printed. */
  printLoginDetails(db: Database, actor: Actor, id: number): Promise<CredentialPair>;
}

/** What differs between the kinds of staff account; everything else is the same for all. */
export interface AccountKind<
  Query extends Schema,
  Body extends Schema,
  UpdateBody extends Schema,
  Item extends Schema,
  List extends Schema,
> {
  /** `/doctors`: the list's path, also the tag's name. */
  path: `/${string}`;
  access: Permission;
  /** Which login page the printed details point to. */
  loginKind: 'doctor' | 'admin';
  schemas: {
    listQuery: Query;
    list: List;
    item: Item;
    body: Body;
    updateBody: UpdateBody;
    /** `{status: "success", data: item}`. */
    saved: Schema;
  };
  summaries: { list: string; print: string; create?: string; update: string };
  /**
   * Statuses beyond each route's own, declared so that they show in the OpenAPI: `all` on every
   * route (401 and 403 are there for every kind), `print` and `remove` where the kind has a
   * refusal of its own (an administrator's own account, the last administrator).
   */
  responses?: { all?: Responses; print?: Responses; remove?: Responses };
  service: AccountService<
    z.output<Query>,
    z.output<Body>,
    z.output<UpdateBody>,
    z.output<Item>,
    z.output<List>
  >;
}

/**
 * The list, read, create, update, delete, restore and print-login-details routes that every kind
 * of staff account (doctors, administrators with data protection officers, monitors) answers the
 * same way; each module states only what differs (ADR 047).
 */
export function accountRoutes<
  Query extends Schema,
  Body extends Schema,
  UpdateBody extends Schema,
  Item extends Schema,
  List extends Schema,
>(kind: AccountKind<Query, Body, UpdateBody, Item, List>): FastifyPluginAsyncZod<AppDeps> {
  const { path, access, schemas, summaries, service } = kind;
  const tags = [path.slice(1)];
  // Every kind's routes need an administrator's session: all declare 401 and 403 (ADR 047).
  const all = { ...refusals, ...kind.responses?.all };
  const byId = `${path}/:id`;
  // The type provider cannot resolve a generic schema's output; Fastify has validated these
  // values with the very schemas that name their types.
  const bodyOf = <T>(value: unknown) => value as T;
  // Answers are checked against the service's types above; Fastify needs no more than a schema.
  const list: Schema = schemas.list;
  const item: Schema = schemas.item;

  return async (app, { db, config }) => {
    app.get(
      path,
      {
        config: { access },
        schema: {
          tags,
          summary: summaries.list,
          querystring: schemas.listQuery,
          response: { 200: list, ...all, 422: validationErrorResponse },
        },
      },
      (request) => service.list(db, bodyOf<z.output<Query>>(request.query)),
    );

    app.get(
      byId,
      {
        config: { access },
        schema: {
          tags,
          params: idParams,
          response: { 200: item, ...all, 404: errorResponse },
        },
      },
      (request) => service.get(db, request.params.id),
    );

    app.get(
      `${path}/print_login_detail/:id`,
      {
        config: { access, noStore: true },
        schema: {
          tags,
          summary: summaries.print,
          params: idParams,
          response: { 200: loginDetails, ...all, 404: errorResponse, ...kind.responses?.print },
        },
      },
      async (request) => {
        const details = await service.printLoginDetails(db, actorOf(request), request.params.id);
        return { ...details, login_url: loginAddress(kind.loginKind, config.publicUrl) };
      },
    );

    app.post(
      path,
      {
        config: { access },
        schema: {
          tags,
          ...(summaries.create ? { summary: summaries.create } : {}),
          body: schemas.body,
          response: {
            200: schemas.saved,
            ...all,
            409: errorResponse,
            422: validationErrorResponse,
          },
        },
      },
      async (request) => ({
        status: 'success' as const,
        data: await service.create(db, actorOf(request), bodyOf<z.output<Body>>(request.body)),
      }),
    );

    app.put(
      byId,
      {
        config: { access },
        schema: {
          tags,
          summary: summaries.update,
          params: idParams,
          body: schemas.updateBody,
          response: {
            200: schemas.saved,
            ...all,
            404: errorResponse,
            409: errorResponse,
            422: validationErrorResponse,
          },
        },
      },
      async (request) => ({
        status: 'success' as const,
        data: await service.update(
          db,
          actorOf(request),
          request.params.id,
          bodyOf<z.output<UpdateBody>>(request.body),
        ),
      }),
    );

    app.put(
      `${path}/restore/:id`,
      {
        config: { access },
        schema: {
          tags,
          params: idParams,
          response: { 200: successResponse, ...all, 404: errorResponse },
        },
      },
      async (request) => {
        await service.restore(db, actorOf(request), request.params.id);
        return { status: 'success' as const };
      },
    );

    app.delete(
      byId,
      {
        config: { access },
        schema: {
          tags,
          params: idParams,
          response: {
            200: successResponse,
            ...all,
            404: errorResponse,
            ...kind.responses?.remove,
          },
        },
      },
      async (request) => {
        await service.remove(db, actorOf(request), request.params.id);
        return { status: 'success' as const };
      },
    );
  };
}
