import {
  All,
  applyDecorators,
  Delete,
  Get,
  HttpCode,
  Param,
  Patch,
  Post,
  Put,
  Req,
  type Type,
} from '@nestjs/common';
import {
  ApiBody,
  ApiConflictResponse,
  ApiConsumes,
  ApiCreatedResponse,
  ApiExcludeEndpoint,
  ApiExtraModels,
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiPayloadTooLargeResponse,
  ApiResponse,
  getSchemaPath,
} from '@nestjs/swagger';
import { type Request } from 'express';
import { type Principal } from '../auth/tokens.service';
import { type SerializerInfo } from './metadata';
import { methodNotAllowed, notFound } from './exceptions';
import { type Input } from './serializer';
import { requestOrigin } from './pagination';
import { Body, type RequestInput, type UploadedPart } from './request-input';
import { DETAIL_METHODS, LIST_METHODS, otherMethod, postActions, putActions } from './routes';

/**
 * A detail route's `{id}` as Django's URL pattern and `get_object_or_404` take it: the route matches any segment,
 * and anything that is not an id PostgreSQL's `integer` holds is a 404 (never a 500).
 */
export function parseId(text: string): number {
  if (!/^\d{1,10}$/.test(text)) throw notFound();
  const id = Number(text);
  if (id < 1 || id > 2_147_483_647) throw notFound();
  return id;
}

/**
 * What a service may need of the request it answers (DRF hands its serializers the request in their context):
 * the origin absolute URLs are built on, and the uploaded files.
 */
export interface ResourceRequest {
  /** scheme://host as the client sees it (`requestOrigin`): the base of absolute URLs in representations. */
  origin: string;
  /**
   * The multipart file parts by field name: only for resources declared with `uploads` (empty for the others).
   * Reading them raises the body's parse, size or media-type error, as reading the input does.
   */
  files(): Map<string, UploadedPart>;
  /** The signed-in principal (every resource route is authenticated). */
  user?: Principal;
  /** Who writes what, with the client's `Idempotency-Key` (only for writes: create, replace, update). */
  write?: WriteIdentity;
}

/** A write's identity, for replaying a repeated request (inspection-api's `Idempotency-Key`). */
export interface WriteIdentity {
  method: string;
  /** The request path (without the query). */
  path: string;
  /** The authenticated user's id (keys are scoped per user). */
  userId: number | undefined;
  /** The `Idempotency-Key` header as received. */
  idempotencyKey: string | string[] | undefined;
  /** Marks the response as a replay of an earlier one (`Idempotent-Replayed: true`). */
  markReplayed(): void;
}

/**
 * What a DRF ModelViewSet-like resource needs from its service (JSON, urlencoded or multipart input). A service
 * that builds no absolute URLs and takes no files simply leaves out the trailing `request` parameters.
 */
export interface ResourceService {
  findOne(id: number, request: ResourceRequest): Promise<unknown>;
  create(readInput: () => Input, request: ResourceRequest): Promise<unknown>;
  update(id: number, readInput: () => Input, partial: boolean, request: ResourceRequest): Promise<unknown>;
  remove(id: number, request: ResourceRequest): Promise<void>;
}

/**
 * The file-upload hook: a resource with model file fields (DRF `FileField` / `ImageField`) is also written with
 * `multipart/form-data`, its service receives the file parts (`ResourceRequest.files()`), and OpenAPI shows both
 * body forms and the 413 of a file over its limit.
 */
export interface ResourceUploads {
  /** OpenAPI: the multipart form of a write, the fields as form fields plus the file parts. */
  multipart: Type<unknown>;
  /** OpenAPI: how to send a write (what JSON ignores, the parts' names). */
  description: string;
  /** OpenAPI: when a write answers 413. */
  tooLarge: string;
}

export interface ResourceRoutesOptions {
  /** DRF's view name stem: `Device` → "Device List" / "Device Instance" in OPTIONS answers. */
  name: string;
  /** The serializer description for OPTIONS (`actions.POST` / `actions.PUT`). */
  info: SerializerInfo;
  /** OpenAPI: the representation and the writable input. */
  representation: Type<unknown>;
  input: Type<unknown>;
  createSummary?: string;
  removeSummary: string;
  /** File fields written through multipart/form-data (see `ResourceUploads`). */
  uploads?: ResourceUploads;
  /** OpenAPI: the writes take an `Idempotency-Key` header (the service replays repeats). */
  idempotent?: boolean;
  /** `false`: the resource is never deleted; DELETE on a detail is 405 (the detail allows `DETAIL_METHODS` less DELETE). */
  removable?: false;
}

/** The handlers ResourceRoutes adds (Nest calls them; `DrfExpressAdapter` sends what they return). */
export interface ResourceHandlers {
  create(request: Request, body: RequestInput): Promise<unknown>;
  listOther(request: Request): Promise<object>;
  findOne(id: string, request: Request): Promise<unknown>;
  replace(id: string, request: Request, body: RequestInput): Promise<unknown>;
  modify(id: string, request: Request, body: RequestInput): Promise<unknown>;
  remove(id: string, request: Request): Promise<void>;
  detailOther(id: string, request: Request): Promise<object>;
}

const NO_FILES = (): Map<string, UploadedPart> => new Map();

function writeIdentity(request: Request): WriteIdentity {
  return {
    method: request.method,
    path: request.path,
    userId: (request as Request & { user?: { userId?: number } }).user?.userId,
    idempotencyKey: request.headers['idempotency-key'],
    markReplayed: () => request.res?.setHeader('Idempotent-Replayed', 'true'),
  };
}

/** OpenAPI of a write's body: the input (JSON and form), or with uploads also its multipart form. */
function writeBody(options: ResourceRoutesOptions, description?: string): MethodDecorator {
  const { input, uploads } = options;
  const body = uploads
    ? uploadBody(input, uploads)
    : ApiBody({ type: input, ...(description ? { description } : {}) });
  if (!options.idempotent) return body;
  return applyDecorators(
    body,
    ApiHeader({
      name: 'Idempotency-Key',
      required: false,
      description:
        'A client-chosen key (a Structured Field string such as "8e03978e-40d5-43e8-bc93-6894a57f9324", or a bare token; 1-255 printable ASCII), per user, kept at least 24 h: a repeat answers the first status and body (with `Idempotent-Replayed: true`) and writes nothing.',
    }),
    ApiResponse({
      status: 422,
      description: 'The Idempotency-Key was already used with a different request (`{"detail": …}`).',
    }),
    ApiConflictResponse({
      description: 'The first request with this Idempotency-Key is still running (`{"detail": …}`).',
    }),
  );
}

function removeDocumentation(options: ResourceRoutesOptions): MethodDecorator {
  if (options.removable === false) return ApiExcludeEndpoint();
  return applyDecorators(ApiOperation({ summary: options.removeSummary }), ApiNoContentResponse());
}

function uploadBody(input: Type<unknown>, uploads: ResourceUploads): MethodDecorator {
  return applyDecorators(
    ApiExtraModels(input, uploads.multipart),
    ApiConsumes('application/json', 'multipart/form-data'),
    ApiBody({
      schema: { oneOf: [{ $ref: getSchemaPath(input) }, { $ref: getSchemaPath(uploads.multipart) }] },
      description: uploads.description,
    }),
    ApiPayloadTooLargeResponse({ description: uploads.tooLarge }),
  );
}

/**
 * The routes every ModelViewSet-like resource shares, after the subclass's own `GET` list (Nest registers a
 * subclass's methods before its base's, so the list comes first and the catch-alls last): create, retrieve,
 * replace, partial update, delete, and the OPTIONS / 405 catch-alls of the list and detail paths. Every
 * handler of the resource controller, its own list included, answers through `DrfExpressAdapter`.
 */
export function ResourceRoutes(
  options: ResourceRoutesOptions,
): new (resource: ResourceService) => ResourceHandlers {
  const { name, info, representation } = options;
  const detailMethods =
    options.removable === false ? DETAIL_METHODS.filter((method) => method !== 'DELETE') : DETAIL_METHODS;
  const context = (request: Request, body?: RequestInput): ResourceRequest => ({
    origin: requestOrigin(request),
    files: options.uploads && body ? () => body.files() : NO_FILES,
    user: (request as Request & { user?: Principal }).user,
    write: writeIdentity(request),
  });

  class ResourceRoutesBase implements ResourceHandlers {
    constructor(private readonly resource: ResourceService) {}

    @Post()
    @ApiOperation({ summary: options.createSummary ?? `Create a ${name.toLowerCase()}` })
    @writeBody(options)
    @ApiCreatedResponse({ type: representation })
    create(@Req() request: Request, @Body() body: RequestInput): Promise<unknown> {
      return this.resource.create(() => body.read(), context(request, body));
    }

    @All()
    @ApiExcludeEndpoint()
    listOther(@Req() request: Request): Promise<object> {
      return otherMethod(request, LIST_METHODS, `${name} List`, postActions(info));
    }

    @Get(':id')
    @ApiOperation({ summary: `Read a ${name.toLowerCase()}` })
    @ApiOkResponse({ type: representation })
    findOne(@Param('id') id: string, @Req() request: Request): Promise<unknown> {
      return this.resource.findOne(parseId(id), context(request));
    }

    @Put(':id')
    @ApiOperation({ summary: `Replace a ${name.toLowerCase()}` })
    @writeBody(options)
    @ApiOkResponse({ type: representation })
    replace(@Param('id') id: string, @Req() request: Request, @Body() body: RequestInput): Promise<unknown> {
      return this.resource.update(parseId(id), () => body.read(), false, context(request, body));
    }

    @Patch(':id')
    @ApiOperation({ summary: `Update some fields of a ${name.toLowerCase()}` })
    @writeBody(options, 'Any subset of the fields.')
    @ApiOkResponse({ type: representation })
    modify(@Param('id') id: string, @Req() request: Request, @Body() body: RequestInput): Promise<unknown> {
      return this.resource.update(parseId(id), () => body.read(), true, context(request, body));
    }

    @Delete(':id')
    @HttpCode(204)
    @removeDocumentation(options)
    remove(@Param('id') id: string, @Req() request: Request): Promise<void> {
      if (options.removable === false) throw methodNotAllowed('DELETE', detailMethods);
      return this.resource.remove(parseId(id), context(request));
    }

    @All(':id')
    @ApiExcludeEndpoint()
    detailOther(@Param('id') id: string, @Req() request: Request): Promise<object> {
      const actions = putActions(info, () => this.resource.findOne(parseId(id), context(request)));
      return otherMethod(request, detailMethods, `${name} Instance`, actions);
    }
  }
  return ResourceRoutesBase;
}
